/**
 * Plugin: the learner's progress, kept in the state database, and its export.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, showErrorMessage } from '@jupyterlab/apputils';
import { IStateDB } from '@jupyterlab/statedb';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { progressBackupPath, serverProgressFile } from '../model/progressFile';
import { toCSV, toJSON } from '../progress/export';
import { ProgressTracker } from '../progress/tracker';
import { DEFAULT_WORKSPACE_FOLDER } from '../model/workspace';
import {
  ICasebookManager,
  IProgressTracker,
  IWorkspaceFolder
} from '../tokens';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/**
 * Keeps per-case status, attempts and time through IStateDB, with a backup
 * file per casebook in the workspace folder (the Replay settings'
 * `workspaceFolder`) that survives a server restart; see docs/faults.md.
 */
export const progressPlugin: JupyterFrontEndPlugin<IProgressTracker> = {
  id: 'jupyterlab-junobench:progress',
  description: "Keeps the learner's progress per case in the state database.",
  autoStart: true,
  provides: IProgressTracker,
  requires: [IStateDB, ICasebookManager],
  optional: [ITranslator, ICommandPalette, IWorkspaceFolder],
  activate: (
    app: JupyterFrontEnd,
    state: IStateDB,
    manager: ICasebookManager,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    workspace: IWorkspaceFolder | null
  ): IProgressTracker => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const contents = app.serviceManager.contents;
    const backupIn = (folder: string) => (casebook: string) =>
      serverProgressFile(contents, progressBackupPath(folder, casebook));
    const tracker = new ProgressTracker({
      state,
      backupFile: backupIn(workspace?.folder ?? DEFAULT_WORKSPACE_FOLDER)
    });
    const sync = () => tracker.setCasebook(manager.casebook?.name ?? null);
    manager.changed.connect(sync);
    sync();
    // The backup follows the workspace folder setting.
    workspace?.changed.connect((_, folder) =>
      tracker.setBackupFile(backupIn(folder))
    );
    // A change not yet on the server (it is down) lives only in this page:
    // ask before the page goes away.
    window.addEventListener('beforeunload', event => {
      if (tracker.backupState.pending && tracker.backupState.error) {
        event.preventDefault();
        event.returnValue = '';
      }
    });

    const exportAs = async (format: 'json' | 'csv') => {
      const store = tracker.store;
      if (!store) {
        await showErrorMessage(
          trans.__('Nothing to export'),
          trans.__('No casebook is loaded.')
        );
        return;
      }
      // Loaded first: right after a reload the store may still be merging
      // the state database with the backup file.
      await store.ready;
      await store.flush();
      const progress = store.all();
      const content =
        format === 'json'
          ? toJSON(progress, {
              casebook: store.casebook,
              exportedAt: new Date()
            })
          : toCSV(progress);
      const path = `junobench-progress-${store.casebook}.${format}`;
      await app.serviceManager.contents.save(path, {
        type: 'file',
        format: 'text',
        content
      });
      await app.commands.execute('docmanager:open', { path });
    };

    app.commands.addCommand(CommandIDs.exportProgressJSON, {
      label: trans.__('Export JunoBench Progress as JSON'),
      caption: trans.__(
        'Write the progress of every case to a JSON file in the server root'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => exportAs('json')
    });
    app.commands.addCommand(CommandIDs.exportProgressCSV, {
      label: trans.__('Export JunoBench Progress as CSV'),
      caption: trans.__(
        'Write the progress of every case to a CSV file in the server root'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => exportAs('csv')
    });
    for (const command of [
      CommandIDs.exportProgressJSON,
      CommandIDs.exportProgressCSV
    ]) {
      palette?.addItem({ command, category: trans.__('JunoBench') });
    }
    return tracker;
  }
};
