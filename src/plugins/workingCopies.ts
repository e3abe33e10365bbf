/**
 * Plugin: the registry of open working copies, each with its replay and
 * check models, shared by the case header and the case side panel.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { TRANSLATION_DOMAIN } from '../i18n';
import { MemoryReferenceCache } from '../repair/repairCheck';
import { WorkingCopies } from '../model/workingCopies';
import { ICasebookManager, IProgressTracker, IWorkingCopies } from '../tokens';
import { CellMarks } from '../widgets/cellMarks';

/**
 * Makes the replay and check models of every working copy that opens.
 */
export const workingCopiesPlugin: JupyterFrontEndPlugin<IWorkingCopies> = {
  id: 'jupyterlab-junobench:working-copies',
  description:
    'Gives every open working copy of a case its replay and check models.',
  autoStart: true,
  provides: IWorkingCopies,
  requires: [ICasebookManager, INotebookTracker],
  optional: [ITranslator, IProgressTracker],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    tracker: INotebookTracker,
    translator: ITranslator | null,
    progress: IProgressTracker | null
  ): IWorkingCopies => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const copies = new WorkingCopies({
      sessions: app.serviceManager.sessions,
      contents: app.serviceManager.contents,
      caseOf: name => manager.find(name),
      progress,
      // What each case's reference fix does, learned once per page and environment.
      referenceCache: new MemoryReferenceCache(),
      trans
    });
    // Each working copy's cells show the running step and the crash.
    copies.added.connect((_, { panel, replay }) => {
      const marks = new CellMarks({
        panel,
        replay,
        trans
      });
      panel.disposed.connect(() => marks.dispose());
    });
    tracker.widgetAdded.connect((_, panel) => copies.track(panel));
    tracker.forEach(panel => copies.track(panel));
    return copies;
  }
};
