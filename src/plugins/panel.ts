/**
 * Plugin: the JunoBench side panel.
 */
import { ILayoutRestorer } from '@jupyterlab/application';
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { IStateDB } from '@jupyterlab/statedb';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { junobenchIcon } from '../icons';
import { CaseFetcher } from '../model/caseFetcher';
import { CasebookModel } from '../model/casebookModel';
import {
  ICaseOpener,
  ICasebookManager,
  IProgressTracker,
  IRevealer,
  IWorkshopManager
} from '../tokens';
import { CasebookPanel } from '../widgets/panel';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/** The panel plugin id (settings in schema/panel.json). */
export const PANEL_PLUGIN_ID = 'jupyterlab-junobench:panel';

/**
 * Adds the case list to the left area.
 */
export const panelPlugin: JupyterFrontEndPlugin<void> = {
  id: PANEL_PLUGIN_ID,
  description:
    'The JunoBench side panel: search and filter the cases of the casebook.',
  autoStart: true,
  requires: [ICasebookManager],
  optional: [
    ICaseOpener,
    IProgressTracker,
    ILayoutRestorer,
    ITranslator,
    ICommandPalette,
    ISettingRegistry,
    IWorkshopManager,
    IStateDB,
    IRevealer
  ],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    opener: ICaseOpener | null,
    statuses: IProgressTracker | null,
    restorer: ILayoutRestorer | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    registry: ISettingRegistry | null,
    workshops: IWorkshopManager | null,
    state: IStateDB | null,
    revealer: IRevealer | null
  ): void => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    // "Fetch this case": through the server, into a sparse copy only.
    const fetcher = new CaseFetcher({
      serverSettings: app.serviceManager.serverSettings,
      translate: trans.__.bind(trans)
    });
    const model = new CasebookModel({
      manager,
      fetcher,
      contents: app.serviceManager.contents,
      statuses,
      workshops,
      state,
      revealer,
      translate: trans.__.bind(trans)
    });
    const panel = new CasebookPanel({
      model,
      icon: junobenchIcon,
      translator: translator ?? nullTranslator,
      onOpen: name => app.commands.execute(CommandIDs.openCase, { name }),
      // Showing the case list is the cue to warm a kernel for the case to come.
      onShow: () => opener?.warmUp?.(),
      onLeaveWorkshop: workshops
        ? () => app.commands.execute(CommandIDs.leaveWorkshop)
        : undefined
    });
    // Following a fetch ends with the panel that shows it.
    panel.disposed.connect(() => {
      model.dispose();
      fetcher.dispose();
    });
    model.start();

    app.shell.add(panel, 'left', { rank: 600 });
    restorer?.add(panel, 'jupyterlab-junobench:panel');

    app.commands.addCommand(CommandIDs.openPanel, {
      label: trans.__('Show JunoBench Cases'),
      caption: trans.__('Open the JunoBench side panel'),
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => app.shell.activateById(panel.id)
    });
    palette?.addItem({
      command: CommandIDs.openPanel,
      category: trans.__('JunoBench')
    });
    palette?.addItem({
      command: CommandIDs.reloadCasebook,
      category: trans.__('JunoBench')
    });
    palette?.addItem({
      command: CommandIDs.chooseCasebook,
      category: trans.__('JunoBench')
    });

    if (!opener) {
      console.warn(
        'jupyterlab-junobench: no case opener; cases can be listed but not opened.'
      );
    }
    if (registry) {
      void Promise.all([registry.load(PANEL_PLUGIN_ID), app.restored]).then(
        ([settings]) => {
          if (settings.get('openOnStart').composite as boolean) {
            app.shell.activateById(panel.id);
          }
        }
      );
    }
  }
};
