import type { JupyterFrontEndPlugin } from '@jupyterlab/application';

const plugins: JupyterFrontEndPlugin<any>[] = [];
export default plugins;
