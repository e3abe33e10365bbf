/**
 * The JunoBench icon.
 */
import { LabIcon } from '@jupyterlab/ui-components';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <g class="jp-icon3" fill="#616161">
    <path d="M4 3h11l5 5v13a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm10 1.5V9h4.5L14 4.5z"/>
  </g>
  <g class="jp-icon-accent0" fill="#fff">
    <path d="M12.9 10.2l-1.6 3.3h2.5l-3.6 5.3.9-3.8H8.6l2.1-4.8z"/>
  </g>
</svg>`;

/** The icon of the JunoBench panel. */
export const junobenchIcon = new LabIcon({
  name: 'jupyterlab-junobench:icon',
  svgstr: svg
});
