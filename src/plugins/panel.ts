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
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { junobenchIcon } from '../icons';
import { CatalogueModel } from '../model/catalogue';
import { ICaseOpener, ICasebookManager, IProgressTracker } from '../tokens';
import { CasebookPanel } from '../widgets/panel';
import { CommandIDs } from './commands';

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
    ISettingRegistry
  ],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    opener: ICaseOpener | null,
    statuses: IProgressTracker | null,
    restorer: ILayoutRestorer | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    registry: ISettingRegistry | null
  ): void => {
    const trans = (translator ?? nullTranslator).load('jupyterlab_junobench');
    const model = new CatalogueModel();
    const panel = new CasebookPanel({
      model,
      icon: junobenchIcon,
      translator: translator ?? nullTranslator,
      statusOf: statuses ? name => statuses.statusOf(name) : undefined,
      onOpen: name => app.commands.execute(CommandIDs.openCase, { name })
    });
    if (statuses) {
      model.setStatusOf(name => statuses.statusOf(name));
      statuses.changed.connect(() => {
        model.setStatusOf(name => statuses.statusOf(name));
        panel.setProgress(
          statuses.summary(model.casebook?.cases.map(c => c.name) ?? [])
        );
      });
    }
    const sync = () => {
      model.casebook = manager.casebook;
      panel.setHeadline({ loading: manager.loading, error: manager.error });
      if (statuses) {
        panel.setProgress(
          statuses.summary(manager.casebook?.cases.map(c => c.name) ?? [])
        );
      }
    };
    manager.changed.connect(sync);
    sync();

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
