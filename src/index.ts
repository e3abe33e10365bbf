/**
 * jupyterlab-junobench: the plugin list.
 */
import type { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { authoringPlugin } from './plugins/authoring';
import { casebookPlugin } from './plugins/casebook';
import { casePanelPlugin } from './plugins/casePanel';
import { panelPlugin } from './plugins/panel';
import { progressPlugin } from './plugins/progress';
import { replayPlugin } from './plugins/replay';
import { restartWatchPlugin } from './plugins/restartWatch';
import { revealPlugin } from './plugins/reveal';
import { timePlugin } from './plugins/time';
import { workshopPlugin } from './plugins/workshop';
import { workingCopiesPlugin } from './plugins/workingCopies';
import { workspacePlugin } from './plugins/workspace';

export * from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  casebookPlugin,
  workspacePlugin,
  progressPlugin,
  revealPlugin,
  workingCopiesPlugin,
  replayPlugin,
  restartWatchPlugin,
  casePanelPlugin,
  panelPlugin,
  timePlugin,
  workshopPlugin,
  authoringPlugin
];

export default plugins;
