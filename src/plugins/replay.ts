/**
 * Plugin: open cases as working copies and replay them in a live kernel.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  ICommandPalette,
  MainAreaWidget,
  showErrorMessage
} from '@jupyterlab/apputils';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { INotebookTracker } from '@jupyterlab/notebook';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { MemoryReferenceCache } from '../kernel/repairCheck';
import { WarmKernelPool } from '../kernel/warmPool';
import type { IWarmKernel } from '../kernel/warmPool';
import { readWorkingCopyMeta } from '../model/workingCopy';
import { diagnosisChoices } from '../repair/selfDiagnosis';
import { Workspace } from '../model/workspace';
import {
  ICaseOpener,
  ICasebookManager,
  IProgressTracker,
  IRevealer
} from '../tokens';
import { CheckBar } from '../widgets/checkBar';
import { CheckController } from '../widgets/checkController';
import { ReplayBar } from '../widgets/replayBar';
import { ReplayController } from '../widgets/replayController';
import { junobenchIcon } from '../icons';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/** The replay plugin id (settings in schema/replay.json). */
export const REPLAY_PLUGIN_ID = 'jupyterlab-junobench:replay';

/**
 * Opens cases and adds the replay bar to working copies.
 */
export const replayPlugin: JupyterFrontEndPlugin<ICaseOpener> = {
  id: REPLAY_PLUGIN_ID,
  description:
    'Opens JunoBench cases as working copies and replays them in the recorded order.',
  autoStart: true,
  provides: ICaseOpener,
  requires: [ICasebookManager, IDocumentManager, INotebookTracker],
  optional: [
    ISettingRegistry,
    ITranslator,
    ICommandPalette,
    IProgressTracker,
    IRevealer
  ],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    docManager: IDocumentManager,
    tracker: INotebookTracker,
    registry: ISettingRegistry | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    progress: IProgressTracker | null,
    revealer: IRevealer | null
  ): ICaseOpener => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const config = {
      kernelName: '',
      warmKernel: true,
      timeoutMs: 120000,
      workspace: 'junobench-work'
    };
    const workspace = new Workspace({
      contents: app.serviceManager.contents,
      folder: config.workspace
    });
    const controllers = new Map<NotebookPanel, ReplayController>();
    const checkers = new Map<NotebookPanel, CheckController>();
    // What each case's reference fix does, learned once per page and environment.
    const referenceCache = new MemoryReferenceCache();

    const kernelName = async (): Promise<string | undefined> => {
      if (config.kernelName) {
        return config.kernelName;
      }
      await app.serviceManager.kernelspecs.ready;
      const specs = app.serviceManager.kernelspecs.specs?.kernelspecs ?? {};
      return 'junobench' in specs ? 'junobench' : undefined;
    };

    // A kernel started ahead of time for the next case opened (warmKernel),
    // in the server root: the replay probes a kernel's directory and, for one
    // outside the notebook's folder, finds the case folder from the root.
    const WARM_FOLDER = '';
    const pool = new WarmKernelPool({
      serverSettings: app.serviceManager.serverSettings,
      contents: app.serviceManager.contents
    });
    let warmWanted = false;
    let settingsLoaded: Promise<unknown> = Promise.resolve();
    const warmName = async (): Promise<string | undefined> => {
      const name = await kernelName();
      return name ?? app.serviceManager.kernelspecs.specs?.default;
    };
    const refillWarm = async (): Promise<void> => {
      // Settings that fail to load leave the defaults in force.
      await settingsLoaded.catch(() => undefined);
      const book = manager.casebook;
      const name = await warmName();
      if (!config.warmKernel) {
        await pool.drain();
      } else if (warmWanted && book && name) {
        await pool.fill(name, WARM_FOLDER);
      }
    };
    manager.changed.connect(() => void refillWarm());
    window.addEventListener('pagehide', () => {
      void pool.drain({ keepalive: true });
    });
    /**
     * Open a working copy, with the warm kernel when it fits: the copy is
     * not open yet, no session holds its path, and the kernel it would get
     * is the warm one's kernelspec. Then warm the next one.
     */
    const openCopy = async (path: string): Promise<void> => {
      const kernel = await kernelName();
      let warm: IWarmKernel | null = null;
      if (
        config.warmKernel &&
        pool.current &&
        !docManager.findWidget(path, 'Notebook') &&
        !Array.from(app.serviceManager.sessions.running()).some(
          s => s.path === path
        )
      ) {
        const wanted = kernel ?? (await Private.notebookKernel(app, path));
        warm = wanted ? await pool.take(wanted, WARM_FOLDER) : null;
      }
      const widget = docManager.openOrReveal(
        path,
        'Notebook',
        warm
          ? { id: warm.id, name: warm.name }
          : kernel
            ? { name: kernel }
            : undefined
      );
      const context = widget?.context;
      void (async () => {
        if (warm) {
          // Another tab may have opened the path meanwhile; then the warm
          // kernel was not used and is shut down.
          const used =
            !!context &&
            (await context.sessionContext.ready.then(
              () => context.sessionContext.session?.kernel?.id === warm!.id,
              () => false
            ));
          if (!used) {
            await pool.release(warm);
          }
        } else if (context) {
          await context.sessionContext.ready.catch(() => undefined);
        }
        // The next kernel starts once this one is up, not competing with it.
        await refillWarm();
      })();
    };

    const opener: ICaseOpener = {
      open: async (name: string) => {
        const book = manager.casebook;
        const c = manager.find(name);
        if (!book || !c) {
          await showErrorMessage(
            trans.__('Cannot open case'),
            trans.__('No case named %1 in the casebook.', name)
          );
          return;
        }
        try {
          const path = await workspace.ensure(book, manager.path, c);
          await openCopy(path);
        } catch (reason) {
          await showErrorMessage(
            trans.__('Cannot open case %1', name),
            (reason as Error).message
          );
        }
      },
      reset: async (name: string) => {
        const book = manager.casebook;
        const c = manager.find(name);
        if (!book || !c) {
          await showErrorMessage(
            trans.__('Cannot reset case'),
            trans.__('No case named %1 in the casebook.', name)
          );
          return null;
        }
        try {
          // Save the open working copies of the case first: the old copy is
          // kept as the learner left it, never overwritten.
          const open: NotebookPanel[] = [];
          tracker.forEach(panel => {
            const meta = readWorkingCopyMeta({
              junobench: panel.model?.getMetadata('junobench')
            });
            if (meta?.case === name && meta.casebook === book.name) {
              open.push(panel);
            }
          });
          await Promise.all(
            open.map(panel =>
              panel.context.model.dirty ? panel.context.save() : undefined
            )
          );
          const path = await workspace.create(book, manager.path, c);
          await openCopy(path);
          return path;
        } catch (reason) {
          await showErrorMessage(
            trans.__('Cannot reset case %1', name),
            (reason as Error).message
          );
          return null;
        }
      },
      warmUp: () => {
        warmWanted = true;
        void refillWarm();
      }
    };

    const attach = (panel: NotebookPanel) => {
      void panel.context.ready.then(() => {
        if (
          controllers.has(panel) ||
          !readWorkingCopyMeta({
            junobench: panel.model?.getMetadata('junobench')
          })
        ) {
          return;
        }
        // One job at a time per working copy: a replay and a check both save
        // the notebook, and two saves at once can clash.
        const controller: ReplayController = new ReplayController({
          panel,
          timeoutMs: config.timeoutMs,
          trans,
          blockedBy: () =>
            checker.state.running
              ? trans.__(
                  'A check of your fix is running; replay when it has finished.'
                )
              : null
        });
        controllers.set(panel, controller);
        const bar = new ReplayBar({ controller, trans });
        panel.contentHeader.addWidget(bar);
        const stateButton = document.createElement('button');
        stateButton.className = 'jp-Junobench-button jp-mod-styled';
        stateButton.textContent = trans.__('State');
        stateButton.title = trans.__(
          'Show what each replayed step did to the hidden state, and why the notebook crashed'
        );
        stateButton.addEventListener('click', () => {
          app.shell.activateById(panel.id);
          void app.commands.execute(CommandIDs.showState);
        });
        bar.addButton(stateButton);
        const checker = new CheckController({
          panel,
          sessions: app.serviceManager.sessions,
          contents: app.serviceManager.contents,
          caseOf: name => manager.find(name),
          progress,
          timeoutMs: () => config.timeoutMs,
          referenceCache,
          trans,
          blockedBy: () =>
            controller.isRunning
              ? trans.__(
                  'A replay is running; check your fix when it has finished.'
                )
              : null
        });
        checkers.set(panel, checker);
        const caseName = () =>
          readWorkingCopyMeta({
            junobench: panel.model?.getMetadata('junobench')
          })?.case ?? '';
        const checkBar = new CheckBar({
          controller: checker,
          trans,
          reveal: {
            state: () =>
              revealer?.state(caseName()) ?? {
                canReveal: false,
                canGiveUp: false,
                why: trans.__('The reveal plugin is disabled.')
              },
            open: async () => revealer?.open(caseName()),
            giveUp: async () => revealer?.giveUp(caseName())
          },
          diagnosis: progress
            ? {
                choices: () => diagnosisChoices(manager.casebook?.cases ?? []),
                progress: () => progress.get(caseName()),
                save: answers => progress.recordPrediction(caseName(), answers),
                trans
              }
            : undefined
        });
        panel.contentHeader.addWidget(checkBar);
        const refresh = () => checkBar.update();
        revealer?.changed.connect(refresh);
        panel.disposed.connect(() => revealer?.changed.disconnect(refresh));
        controller.stateChanged.connect((_, state) => {
          app.commands.notifyCommandChanged();
          const name = controller.meta?.case;
          if (
            progress &&
            name &&
            state.phase === 'finished' &&
            state.kind === 'recorded' &&
            state.result?.status === 'crashed'
          ) {
            void progress.markCrashed(name);
          }
        });
        panel.disposed.connect(() => {
          controllers.delete(panel);
          checkers.delete(panel);
          checker.dispose();
          controller.dispose();
        });
      });
    };
    tracker.widgetAdded.connect((_, panel) => attach(panel));
    tracker.forEach(attach);

    const current = (): ReplayController | null => {
      const panel = tracker.currentWidget;
      return panel ? (controllers.get(panel) ?? null) : null;
    };

    app.commands.addCommand(CommandIDs.openCase, {
      label: args =>
        args.name
          ? trans.__('Open Case %1', String(args.name))
          : trans.__('Open JunoBench Case'),
      caption: trans.__(
        'Open the working copy of a case (created on first open)'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            name: { type: 'string', description: trans.__('The case name') }
          }
        }
      },
      execute: args => opener.open(String(args.name ?? ''))
    });
    app.commands.addCommand(CommandIDs.resetCase, {
      label: args =>
        args.name
          ? trans.__('Reset Case %1', String(args.name))
          : trans.__('Reset JunoBench Case'),
      caption: trans.__(
        'Start a new working copy from the reproduced notebook; the old one is kept'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              description: trans.__(
                'The case name (default: the case of the current working copy)'
              )
            }
          }
        }
      },
      isEnabled: args => !!args.name || !!current()?.meta,
      execute: args =>
        opener.reset(String(args.name ?? current()?.meta?.case ?? ''))
    });
    app.commands.addCommand(CommandIDs.replay, {
      label: trans.__('Replay Case in Recorded Order'),
      caption: trans.__(
        'Restart the kernel and run the cells in the recorded order until the crash'
      ),
      isEnabled: () => !!current() && !current()!.isRunning,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => current()?.replay('recorded')
    });
    app.commands.addCommand(CommandIDs.runTopToBottom, {
      label: trans.__('Run Case Top to Bottom'),
      caption: trans.__(
        'Restart the kernel and run the same cells in document order'
      ),
      isEnabled: () => !!current() && !current()!.isRunning,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => current()?.replay('top-to-bottom')
    });
    app.commands.addCommand(CommandIDs.interrupt, {
      label: trans.__('Interrupt Replay'),
      caption: trans.__('Interrupt the running replay'),
      isEnabled: () => !!current()?.isRunning,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => current()?.interrupt()
    });
    app.commands.addCommand(CommandIDs.showState, {
      label: trans.__('Show JunoBench State'),
      caption: trans.__(
        'Show what each replayed step did to the hidden state, and why the notebook crashed'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      isEnabled: () => !!current(),
      execute: async () => {
        const panel = tracker.currentWidget;
        const controller = panel ? controllers.get(panel) : undefined;
        if (!panel || !controller) {
          return;
        }
        const { StateView } = await import('../widgets/stateView');
        const id = `jp-junobench-state-${panel.id}`;
        const existing = [...app.shell.widgets('main')].find(w => w.id === id);
        if (existing) {
          app.shell.activateById(id);
          return;
        }
        const widget = new MainAreaWidget({
          content: new StateView({ controller, trans })
        });
        widget.id = id;
        widget.title.label = trans.__('State: %1', panel.title.label);
        widget.title.icon = junobenchIcon;
        widget.title.closable = true;
        panel.disposed.connect(() => widget.dispose());
        app.shell.add(widget, 'main', { mode: 'split-right', ref: panel.id });
      }
    });
    app.commands.addCommand(CommandIDs.checkFix, {
      label: trans.__('Check My Fix'),
      caption: trans.__(
        'Run the working copy from a fresh kernel and judge the repair'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      isEnabled: () => {
        const panel = tracker.currentWidget;
        const checker = panel ? checkers.get(panel) : undefined;
        return !!checker && !checker.state.running;
      },
      execute: () => {
        const panel = tracker.currentWidget;
        return panel ? checkers.get(panel)?.check() : undefined;
      }
    });
    for (const command of [
      CommandIDs.checkFix,
      CommandIDs.resetCase,
      CommandIDs.replay,
      CommandIDs.runTopToBottom,
      CommandIDs.interrupt,
      CommandIDs.showState
    ]) {
      palette?.addItem({ command, category: trans.__('JunoBench') });
    }

    if (registry) {
      settingsLoaded = registry.load(REPLAY_PLUGIN_ID).then(settings => {
        const apply = () => {
          config.kernelName =
            (settings.get('kernelName').composite as string) ?? '';
          config.warmKernel =
            (settings.get('warmKernel').composite as boolean) ?? true;
          config.timeoutMs =
            Math.max(
              0,
              (settings.get('cellTimeout').composite as number) ?? 120
            ) * 1000;
          config.workspace = (
            (settings.get('workspaceFolder').composite as string) ??
            'junobench-work'
          ).replace(/^\/+|\/+$/g, '');
          workspace.folder = config.workspace;
          controllers.forEach(c => (c.timeoutMs = config.timeoutMs));
          // Start, move or stop the warm kernel to match.
          void refillWarm();
        };
        settings.changed.connect(apply);
        apply();
      });
    }
    return opener;
  }
};

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The kernelspec name a notebook asks for in its metadata, or undefined.
   */
  export async function notebookKernel(
    app: JupyterFrontEnd,
    path: string
  ): Promise<string | undefined> {
    try {
      const model = await app.serviceManager.contents.get(path, {
        content: true,
        type: 'notebook'
      });
      const spec = (
        model.content as { metadata?: { kernelspec?: { name?: unknown } } }
      )?.metadata?.kernelspec?.name;
      return typeof spec === 'string' ? spec : undefined;
    } catch {
      return undefined;
    }
  }
}
