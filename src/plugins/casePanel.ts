/**
 * Plugin: the "JunoBench case" side panel in the right area, following the
 * current working copy, with a command that shows and focuses it.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ILayoutRestorer } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { TRANSLATION_DOMAIN } from '../i18n';
import { junobenchIcon } from '../icons';
import { CaseStory } from '../model/caseStory';
import {
  ICasebookManager,
  IProgressTracker,
  IRevealer,
  IWorkingCopies
} from '../tokens';
import { CaseSidePanel } from '../widgets/caseSidePanel';
import { CommandIDs } from './commands';

/**
 * Shows the story of the current working copy in the right area.
 */
export const casePanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-junobench:case-panel',
  description:
    'The JunoBench case side panel: verdict, why it crashed, order, hints, self-diagnosis and environment of the current working copy.',
  autoStart: true,
  requires: [IWorkingCopies, INotebookTracker],
  optional: [
    ITranslator,
    ILayoutRestorer,
    ICommandPalette,
    ICasebookManager,
    IProgressTracker,
    IRevealer
  ],
  activate: (
    app: JupyterFrontEnd,
    copies: IWorkingCopies,
    tracker: INotebookTracker,
    translator: ITranslator | null,
    restorer: ILayoutRestorer | null,
    palette: ICommandPalette | null,
    manager: ICasebookManager | null,
    progress: IProgressTracker | null,
    revealer: IRevealer | null
  ): void => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const story = new CaseStory({ progress, manager, revealer });
    const panel = new CaseSidePanel({
      story,
      commands: app.commands,
      commandIds: {
        showState: CommandIDs.showState,
        nextHint: CommandIDs.nextHint
      },
      translator: translator ?? undefined,
      trans
    });
    panel.title.icon = junobenchIcon;
    app.shell.add(panel, 'right', { rank: 650, type: 'JunoBench case' });
    restorer?.add(panel, 'jupyterlab-junobench-case-panel');

    // Follow the current notebook; a working copy that opens shows the panel.
    const follow = () => {
      const current = tracker.currentWidget;
      story.current = current ? copies.get(current) : null;
    };
    tracker.currentChanged.connect(follow);
    copies.added.connect((_, copy) => {
      follow();
      if (copy.panel === tracker.currentWidget) {
        app.shell.activateById(panel.id);
      }
    });
    follow();

    app.commands.addCommand(CommandIDs.showCasePanel, {
      label: trans.__('Show the JunoBench Case Panel'),
      caption: trans.__(
        'Show the verdict, why it crashed, the order, hints, your diagnosis and the environment of the current case, and focus its first section (arrow keys move between sections)'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => {
        app.shell.activateById(panel.id);
        panel.focusSections();
      }
    });
    palette?.addItem({
      command: CommandIDs.showCasePanel,
      category: trans.__('JunoBench')
    });
  }
};
