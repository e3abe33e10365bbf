/**
 * Plugin: the gated reveal of a case's diagnosis and reference fix.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { MainAreaWidget, showErrorMessage } from '@jupyterlab/apputils';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { Signal } from '@lumino/signaling';

import { joinSafe } from '../casebook/paths';
import { readServerNotebook } from '../model/workspace';
import { notebookDiff } from '../repair/diff';
import type { ICellDiff } from '../repair/diff';
import { canGiveUp, canReveal, toRevealPolicy } from '../repair/reveal';
import type { RevealPolicy } from '../repair/reveal';
import type { INotebookJSON } from '../replay/types';
import {
  ICasebookManager,
  IProgressTracker,
  IRevealer,
  IWorkshopManager
} from '../tokens';
import { junobenchIcon } from '../icons';
import { RevealView } from '../widgets/revealView';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/** The reveal plugin id (settings in schema/reveal.json). */
export const REVEAL_PLUGIN_ID = 'jupyterlab-junobench:reveal';

/**
 * Shows a case's labels, diagnosis and reference fix once the policy allows.
 */
export const revealPlugin: JupyterFrontEndPlugin<IRevealer> = {
  id: REVEAL_PLUGIN_ID,
  description:
    'Reveals the diagnosis and the reference fix of a case after an attempt (policy in the settings).',
  autoStart: true,
  provides: IRevealer,
  requires: [ICasebookManager, IProgressTracker],
  optional: [ISettingRegistry, ITranslator, IWorkshopManager],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    progress: IProgressTracker,
    registry: ISettingRegistry | null,
    translator: ITranslator | null,
    workshops: IWorkshopManager | null
  ): IRevealer => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    let setting: RevealPolicy = 'after-attempt';
    const changed = new Signal<IRevealer, void>({} as IRevealer);

    const state = (name: string) => {
      // An active workshop's policy wins over the learner's setting.
      const policy = workshops?.revealPolicy ?? setting;
      const record = progress.get(name);
      const open = canReveal(policy, {
        attempts: record?.attempts.length ?? 0,
        solved: record?.status === 'solved'
      });
      let why = '';
      switch (policy) {
        case 'never':
          why = trans.__('Your instructor keeps the reveal closed.');
          break;
        case 'after-pass':
          why = trans.__('The reveal opens once your fix passes the check.');
          break;
        case 'after-attempt':
          why = trans.__(
            'The reveal opens after your first check (or giving up).'
          );
          break;
        case 'always':
          why = '';
          break;
      }
      return {
        canReveal: open,
        canGiveUp: canGiveUp(policy),
        why: open ? '' : why
      };
    };

    const show = async (name: string) => {
      const c = manager.find(name);
      if (!c || !c.files.folder) {
        await showErrorMessage(
          trans.__('Cannot reveal'),
          trans.__('No case named %1 in the casebook.', name)
        );
        return;
      }
      const s = state(name);
      if (!s.canReveal) {
        await showErrorMessage(trans.__('The reveal is closed'), s.why);
        return;
      }
      await progress.recordReveal(c.name, c);
      const folder = joinSafe(manager.path, c.files.folder);
      const read = (kind: string): Promise<INotebookJSON> =>
        readServerNotebook(
          app.serviceManager.contents,
          PathExt.join(folder, `${c.name}_${kind}.ipynb`)
        );
      let diff: ICellDiff[];
      try {
        diff = notebookDiff(await read('reproduced'), await read('fixed'));
      } catch (reason) {
        diff = [];
        console.warn(
          `jupyterlab-junobench: no reference fix for ${name}`,
          reason
        );
      }
      const id = `jp-junobench-reveal-${c.name}`;
      const existing = [...app.shell.widgets('main')].find(w => w.id === id);
      existing?.dispose();
      const widget = new MainAreaWidget({
        content: new RevealView({
          c,
          diff,
          selfDiagnosis: progress.get(c.name)?.selfDiagnosis ?? null,
          trans
        })
      });
      widget.id = id;
      widget.title.label = trans.__('Reveal: %1', c.name);
      widget.title.icon = junobenchIcon;
      widget.title.closable = true;
      app.shell.add(widget, 'main', { mode: 'split-right' });
      app.shell.activateById(id);
    };

    const showOrExplain = async (name: string) => {
      try {
        await show(name);
      } catch (reason) {
        await showErrorMessage(
          trans.__('Cannot reveal %1', name),
          (reason as Error).message ?? String(reason)
        );
      }
    };

    const revealer: IRevealer = {
      state,
      changed,
      open: showOrExplain,
      giveUp: async (name: string) => {
        await progress.recordAttempt(name, {
          passed: false,
          status: 'gave-up'
        });
        await showOrExplain(name);
      }
    };
    progress.changed.connect(() => changed.emit());
    workshops?.changed.connect(() => changed.emit());
    changed.connect(() => app.commands.notifyCommandChanged(CommandIDs.reveal));

    app.commands.addCommand(CommandIDs.reveal, {
      label: trans.__('Reveal Diagnosis and Reference Fix'),
      // For a named case, closed says why (the header's button shows it).
      caption: args =>
        args.name && !state(String(args.name)).canReveal
          ? state(String(args.name)).why
          : trans.__('Show the case labels, diagnosis and reference fix'),
      isEnabled: args => !args.name || state(String(args.name)).canReveal,
      describedBy: {
        args: {
          type: 'object',
          properties: {
            name: { type: 'string', description: trans.__('The case name') }
          }
        }
      },
      execute: args => showOrExplain(String(args.name ?? ''))
    });

    if (registry) {
      void registry.load(REVEAL_PLUGIN_ID).then(settings => {
        const apply = () => {
          setting = toRevealPolicy(settings.get('revealPolicy').composite);
          changed.emit();
        };
        settings.changed.connect(apply);
        apply();
      });
    }
    return revealer;
  }
};
