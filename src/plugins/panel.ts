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
import { CatalogueModel } from '../model/catalogue';
import { PanelActions } from '../model/panelActions';
import type { RevealPolicy } from '../repair/reveal';
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
    const model = new CatalogueModel();
    // "Fetch this case": through the server, into a sparse copy only.
    const fetcher = new CaseFetcher({
      serverSettings: app.serviceManager.serverSettings,
      translate: trans.__.bind(trans)
    });
    const actions = new PanelActions({
      manager,
      catalogue: model,
      fetcher,
      contents: app.serviceManager.contents,
      statuses,
      workshops,
      state,
      translate: trans.__.bind(trans)
    });
    const panel = new CasebookPanel({
      model,
      icon: junobenchIcon,
      translator: translator ?? nullTranslator,
      statusOf: statuses ? name => statuses.statusOf(name) : undefined,
      onOpen: name => app.commands.execute(CommandIDs.openCase, { name }),
      // Showing the case list is the cue to warm a kernel for the case to come.
      onShow: () => opener?.warmUp?.(),
      onFetch: name => actions.fetchCase(name),
      describe: c => actions.describe(c),
      labelsOpen: name => {
        const s = revealer?.state(name);
        return s ? { open: s.canReveal, why: s.why } : { open: true, why: '' };
      },
      onLeaveWorkshop: workshops
        ? () => app.commands.execute(CommandIDs.leaveWorkshop)
        : undefined
    });
    const revealText = (policy: RevealPolicy): string => {
      switch (policy) {
        case 'after-attempt':
          return trans.__(
            'Reveal: after your first check (set by the workshop)'
          );
        case 'after-pass':
          return trans.__('Reveal: after a pass (set by the workshop)');
        case 'always':
          return trans.__('Reveal: at any time (set by the workshop)');
        case 'never':
          return trans.__('Reveal: never (set by the workshop)');
      }
    };
    if (statuses) {
      statuses.backupChanged.connect(() =>
        panel.setBackup(statuses.backupState)
      );
    }
    actions.workshopChanged.connect((_, workshop) =>
      panel.setWorkshop(
        workshop
          ? {
              title: workshop.title,
              description: workshop.description,
              reveal: revealText(workshop.revealPolicy),
              endsAt: workshop.endsAt,
              missing: workshop.missing
            }
          : null
      )
    );
    actions.headlineChanged.connect((_, headline) =>
      panel.setHeadline(headline)
    );
    actions.progressChanged.connect((_, summary) => panel.setProgress(summary));
    actions.fetchSourceChanged.connect((_, s) =>
      panel.setFetchSource(
        s ? { fetchable: s.fetchable, reason: s.reason } : null
      )
    );
    actions.fetched.connect((_, name) => panel.setFetchProgress(name, null));
    // Following a fetch ends with the panel that shows it.
    panel.disposed.connect(() => {
      actions.dispose();
      fetcher.dispose();
    });
    fetcher.progress.connect((_, { name, state }) =>
      panel.setFetchProgress(name, state)
    );
    revealer?.changed.connect(() => panel.invalidate());
    actions.start();

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
