/**
 * Plugin: the JunoBench side panel.
 */
import { ILayoutRestorer } from '@jupyterlab/application';
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { IStateDB } from '@jupyterlab/statedb';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { readmeSummary } from '../casebook/display';
import { mostlyIncomplete } from '../casebook/runnable';
import { junobenchIcon } from '../icons';
import { CaseFetcher } from '../model/caseFetcher';
import { CatalogueModel } from '../model/catalogue';
import type { RevealPolicy } from '../repair/reveal';
import {
  ICaseOpener,
  ICasebookManager,
  IProgressTracker,
  IRevealer,
  IWorkshopManager
} from '../tokens';
import { CasebookPanel } from '../widgets/panel';
import { playlist, timeBox } from '../workshop/playlist';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/** The panel plugin id (settings in schema/panel.json). */
export const PANEL_PLUGIN_ID = 'jupyterlab-junobench:panel';

/** IStateDB key of the "Runnable here" choice, per casebook path. */
const RUNNABLE_KEY = 'jupyterlab-junobench:runnable-only';

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
    const panel = new CasebookPanel({
      model,
      icon: junobenchIcon,
      translator: translator ?? nullTranslator,
      statusOf: statuses ? name => statuses.statusOf(name) : undefined,
      onOpen: name => app.commands.execute(CommandIDs.openCase, { name }),
      // Showing the case list is the cue to warm a kernel for the case to come.
      onShow: () => opener?.warmUp?.(),
      onFetch: name => fetchCase(name),
      // The case card's description: the README's description, never its crash section.
      describe: async c => {
        if (!c.files.folder) {
          return null;
        }
        const file = await app.serviceManager.contents.get(
          PathExt.join(manager.path, c.files.folder, 'README.md'),
          { type: 'file', format: 'text', content: true }
        );
        return typeof file.content === 'string'
          ? readmeSummary(file.content)
          : null;
      },
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
      model.setStatusOf(name => statuses.statusOf(name));
      statuses.changed.connect(() => {
        model.setStatusOf(name => statuses.statusOf(name));
        panel.setProgress(
          statuses.summary(model.casebook?.cases.map(c => c.name) ?? [])
        );
      });
      statuses.backupChanged.connect(() =>
        panel.setBackup(statuses.backupState)
      );
    }
    const sync = () => {
      // In a workshop the panel lists only its cases, in its order.
      const active = workshops?.active ?? null;
      const list =
        active && manager.casebook
          ? playlist(manager.casebook, active.workshop)
          : null;
      model.casebook = list ? list.casebook : manager.casebook;
      panel.setWorkshop(
        active
          ? {
              title: active.workshop.title,
              description: active.workshop.description,
              reveal: revealText(active.workshop.revealPolicy),
              endsAt:
                timeBox(
                  active.startedAt,
                  active.workshop.timeBoxMinutes,
                  Date.now()
                )?.endsAt ?? null,
              missing: list?.missing ?? []
            }
          : null
      );
      panel.setHeadline({ loading: manager.loading, error: manager.error });
      if (statuses) {
        panel.setProgress(
          statuses.summary(model.casebook?.cases.map(c => c.name) ?? [])
        );
      }
    };
    // "Fetch this case": through the server, into a sparse copy only.
    const fetcher = new CaseFetcher({
      serverSettings: app.serviceManager.serverSettings
    });
    // Following a fetch ends with the panel that shows it.
    panel.disposed.connect(() => fetcher.dispose());
    fetcher.progress.connect((_, { name, state }) =>
      panel.setFetchProgress(name, state)
    );
    const fetchCase = async (name: string): Promise<void> => {
      const path = manager.path;
      const result = await fetcher.fetch(path, name);
      if (result.state === 'done' && manager.path === path) {
        await manager.load(path);
        panel.setFetchProgress(name, null);
      }
    };
    let sourceFor: string | null = null;
    const checkSource = () => {
      const path = manager.path;
      if (!manager.casebook || path === sourceFor) {
        return;
      }
      sourceFor = path;
      panel.setFetchSource(null);
      void fetcher.source(path).then(s => {
        if (manager.path === path) {
          // Only a sparse copy can take fetched cases; for any other
          // casebook the question does not arise.
          panel.setFetchSource(
            s.source !== null
              ? { fetchable: s.fetchable, reason: s.reason }
              : null
          );
        }
      });
    };

    // "Runnable here" is remembered per casebook; it starts on when most
    // cases of the casebook cannot run here.
    let runnableFor: string | null = null;
    // The casebook's current choice (remembered, else the default), so a
    // keystroke in the search does not recount the whole casebook.
    let runnableShown = false;
    let runnableChoices: Record<string, boolean> = {};
    const stateLoaded = state
      ? state
          .fetch(RUNNABLE_KEY)
          .then(value => {
            if (value && typeof value === 'object' && !Array.isArray(value)) {
              runnableChoices = value as Record<string, boolean>;
            }
          })
          .catch(() => undefined)
      : Promise.resolve();
    const applyRunnable = () => {
      const book = manager.casebook;
      if (!book || manager.path === runnableFor) {
        return;
      }
      runnableFor = manager.path;
      const stored = runnableChoices[manager.path];
      runnableShown =
        typeof stored === 'boolean' ? stored : mostlyIncomplete(book.cases);
      model.setRunnableOnly(runnableShown);
    };
    model.changed.connect(() => {
      const on = model.query.runnableOnly ?? false;
      if (
        runnableFor !== null &&
        runnableFor === manager.path &&
        on !== runnableShown
      ) {
        runnableShown = on;
        runnableChoices = { ...runnableChoices, [runnableFor]: on };
        void state?.save(RUNNABLE_KEY, runnableChoices);
      }
    });

    revealer?.changed.connect(() => panel.invalidate());
    manager.changed.connect(sync);
    manager.changed.connect(checkSource);
    manager.changed.connect(() => void stateLoaded.then(applyRunnable));
    workshops?.changed.connect(sync);
    sync();
    checkSource();
    void stateLoaded.then(applyRunnable);

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
