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
import type { ReadonlyPartialJSONObject } from '@lumino/coreutils';

import { isEnvironmentPreference } from '../kernel/environment';
import { DEFAULT_WORKSPACE_FOLDER, Workspace } from '../model/workspace';
import {
  ICaseOpener,
  ICasebookManager,
  IRevealer,
  IWorkingCopies,
  IWorkspaceFolder
} from '../tokens';
import { CaseHeader } from '../widgets/caseHeader';
import { CaseOpener } from '../model/caseOpener';
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
  requires: [
    ICasebookManager,
    IDocumentManager,
    INotebookTracker,
    IWorkingCopies
  ],
  optional: [
    ISettingRegistry,
    ITranslator,
    ICommandPalette,
    IRevealer,
    IWorkspaceFolder
  ],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    docManager: IDocumentManager,
    tracker: INotebookTracker,
    copies: IWorkingCopies,
    registry: ISettingRegistry | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    revealer: IRevealer | null,
    folder: IWorkspaceFolder | null
  ): ICaseOpener => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const workspace = new Workspace({
      contents: app.serviceManager.contents,
      folder: folder?.folder ?? DEFAULT_WORKSPACE_FOLDER
    });
    folder?.changed.connect((_, value) => (workspace.folder = value));
    const opener = new CaseOpener({
      manager,
      docManager,
      tracker,
      services: app.serviceManager,
      workspace,
      report: (title, message) => showErrorMessage(title, message),
      trans
    });
    window.addEventListener('pagehide', () => {
      void opener.drain({ keepalive: true });
    });

    // Every working copy gets its case header: a toolbar of commands and one
    // status line; the case's story is in the case side panel.
    copies.added.connect((_, { panel, replay, check, caseName }) => {
      panel.addClass('jp-Junobench-workingCopy');
      const header = new CaseHeader({
        replay,
        check,
        commands: app.commands,
        trans,
        buttons: Private.headerButtons(panel.id, caseName, trans),
        showCrash: () => Private.showCrash(panel, replay.state.crashCell)
      });
      panel.contentHeader.addWidget(header);
      const refresh = () => Private.notify(app, HEADER_COMMANDS);
      revealer?.changed.connect(refresh);
      panel.disposed.connect(() => revealer?.changed.disconnect(refresh));
      check.stateChanged.connect(refresh);
      replay.stateChanged.connect(refresh);
    });

    // Commands act on the working copy named by `id` (the case header's
    // buttons), else on the current one (palette, shortcuts).
    const copyOf = (args: ReadonlyPartialJSONObject = {}) => {
      const panel =
        typeof args.id === 'string' && args.id
          ? tracker.find(p => p.id === args.id)
          : tracker.currentWidget;
      return panel ? copies.get(panel) : null;
    };
    const current = (args?: ReadonlyPartialJSONObject) =>
      copyOf(args)?.replay ?? null;
    const checkerOf = (args: ReadonlyPartialJSONObject) =>
      copyOf(args)?.check ?? null;
    // Not while the other job of the same copy runs (both save the notebook).
    const idle = (args: ReadonlyPartialJSONObject) =>
      !!current(args) &&
      !current(args)!.isRunning &&
      !checkerOf(args)?.state.running;
    const idArg = {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: trans.__(
            'The working copy’s notebook panel id (default: the current one)'
          )
        }
      }
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
      isEnabled: idle,
      describedBy: { args: idArg },
      execute: args => current(args)?.replay('recorded')
    });
    app.commands.addCommand(CommandIDs.runTopToBottom, {
      label: trans.__('Run Case Top to Bottom'),
      caption: trans.__(
        'Restart the kernel and run the same cells in document order'
      ),
      isEnabled: idle,
      describedBy: { args: idArg },
      execute: args => current(args)?.replay('top-to-bottom')
    });
    app.commands.addCommand(CommandIDs.interrupt, {
      label: trans.__('Interrupt Replay'),
      caption: trans.__('Interrupt the running replay'),
      isEnabled: args => !!current(args)?.isRunning,
      describedBy: { args: idArg },
      execute: args => current(args)?.interrupt()
    });
    app.commands.addCommand(CommandIDs.showState, {
      label: trans.__('Show JunoBench State'),
      caption: trans.__(
        'Show what each replayed step did to the hidden state, and why the notebook crashed'
      ),
      describedBy: { args: idArg },
      isEnabled: args => !!current(args),
      execute: async args => {
        const copy = copyOf(args);
        if (!copy) {
          return;
        }
        const { panel, replay: controller } = copy;
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
      describedBy: { args: idArg },
      isEnabled: idle,
      execute: args => checkerOf(args)?.check()
    });
    app.commands.addCommand(CommandIDs.nextHint, {
      label: trans.__('Open the Next JunoBench Hint'),
      caption: trans.__('Open the next hint (each one is recorded)'),
      describedBy: { args: idArg },
      isEnabled: args => {
        const checker = checkerOf(args);
        return !!checker && !checker.state.hintsDone;
      },
      execute: args => checkerOf(args)?.nextHint()
    });
    app.commands.addCommand(CommandIDs.giveUp, {
      label: trans.__('Give Up and Reveal'),
      caption: trans.__(
        'Counts as an attempt, then shows the diagnosis and the reference fix'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            name: { type: 'string', description: trans.__('The case name') }
          }
        }
      },
      // Only where giving up opens the reveal, and only while it is closed.
      isVisible: args => {
        const s = revealer?.state(String(args.name ?? ''));
        return !!s && s.canGiveUp && !s.canReveal;
      },
      isEnabled: args => !!revealer && !!args.name,
      execute: args => revealer?.giveUp(String(args.name ?? ''))
    });
    for (const command of [
      CommandIDs.checkFix,
      CommandIDs.nextHint,
      CommandIDs.resetCase,
      CommandIDs.replay,
      CommandIDs.runTopToBottom,
      CommandIDs.interrupt,
      CommandIDs.showState
    ]) {
      palette?.addItem({ command, category: trans.__('JunoBench') });
    }

    if (registry) {
      opener.ready = registry.load(REPLAY_PLUGIN_ID).then(settings => {
        const apply = () => {
          opener.kernelName =
            (settings.get('kernelName').composite as string) ?? '';
          const environment = settings.get('environment').composite;
          opener.environment = isEnvironmentPreference(environment)
            ? environment
            : 'auto';
          opener.warmKernel =
            (settings.get('warmKernel').composite as boolean) ?? true;
          copies.timeoutMs =
            Math.max(
              0,
              (settings.get('cellTimeout').composite as number) ?? 120
            ) * 1000;
          // Start, move or stop the warm kernel to match.
          void opener.refillWarm();
        };
        settings.changed.connect(apply);
        apply();
      });
    }
    return opener;
  }
};

/** The commands of the case header's toolbar. */
const HEADER_COMMANDS = [
  CommandIDs.replay,
  CommandIDs.runTopToBottom,
  CommandIDs.interrupt,
  CommandIDs.checkFix,
  CommandIDs.nextHint,
  CommandIDs.reveal,
  CommandIDs.giveUp,
  CommandIDs.showState
] as const;

/**
 * Non-exported helpers.
 */
namespace Private {
  /** The case header's buttons: commands on this working copy or its case. */
  export function headerButtons(
    id: string,
    caseName: string,
    trans: { __: (msgid: string, ...args: unknown[]) => string }
  ): CaseHeader.IButton[] {
    const mine = { id };
    const named = { name: caseName };
    const b = (
      name: string,
      command: string,
      label: string,
      args: Record<string, string> = mine,
      caption?: string
    ) => ({ name, command, label, args, caption });
    const __ = trans.__.bind(trans);
    return [
      b('replay', CommandIDs.replay, __('Replay')),
      b('top-to-bottom', CommandIDs.runTopToBottom, __('Run top to bottom')),
      b('interrupt', CommandIDs.interrupt, __('Interrupt')),
      b('check', CommandIDs.checkFix, __('Check my fix')),
      b('hint', CommandIDs.nextHint, __('Hint')),
      b('reveal', CommandIDs.reveal, __('Reveal diagnosis'), named),
      b(
        'give-up',
        CommandIDs.giveUp,
        __('Give up'),
        named,
        __(
          'Give up on this case (it counts as an attempt) and reveal the diagnosis and the reference fix'
        )
      )
    ];
  }

  /** Bring the crashing cell (1-based, document order) into view and select it. */
  export function showCrash(panel: NotebookPanel, cell: number | null): void {
    if (cell === null || cell < 1) {
      return;
    }
    const notebook = panel.content;
    notebook.activeCellIndex = cell - 1;
    void notebook.scrollToItem(cell - 1, 'center');
    notebook.activeCell?.node.focus();
  }

  /**
   * Say that these commands changed, one by one: a toolbar button updates
   * its visibility only for a change that names its own command.
   */
  export function notify(app: JupyterFrontEnd, ids: readonly string[]): void {
    for (const id of ids) {
      if (app.commands.hasCommand(id)) {
        app.commands.notifyCommandChanged(id);
      }
    }
  }
}
