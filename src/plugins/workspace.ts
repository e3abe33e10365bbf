/**
 * Plugin: the workspace folder setting, read in one place.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ISettingRegistry } from '@jupyterlab/settingregistry';

import { WorkspaceFolder } from '../model/workspace';
import { IWorkspaceFolder } from '../tokens';

/** The plugin whose settings hold `workspaceFolder` (schema/replay.json). */
const REPLAY_SETTINGS = 'jupyterlab-junobench:replay';

/**
 * Provides the workspace folder and follows its setting.
 */
export const workspacePlugin: JupyterFrontEndPlugin<IWorkspaceFolder> = {
  id: 'jupyterlab-junobench:workspace',
  description:
    'The server folder of working copies and the progress backup, from the Replay setting "Workspace folder".',
  autoStart: true,
  provides: IWorkspaceFolder,
  optional: [ISettingRegistry],
  activate: (
    _app: JupyterFrontEnd,
    registry: ISettingRegistry | null
  ): IWorkspaceFolder => {
    const folder = new WorkspaceFolder();
    if (registry) {
      void registry
        .load(REPLAY_SETTINGS)
        .then(settings => {
          const apply = () =>
            folder.set(settings.get('workspaceFolder').composite);
          settings.changed.connect(apply);
          apply();
        })
        .catch(reason =>
          console.warn(
            `JunoBench: the Replay settings could not be read; working copies and progress stay in ${folder.folder}/`,
            reason
          )
        );
    }
    return folder;
  }
};
