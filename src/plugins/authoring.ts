/**
 * Plugin: authoring cases — "New JunoBench Casebook…", "Save as JunoBench
 * Case…" (the recorded order from the kernel's own input history) and "Save as
 * JunoBench Reference Fix", each verified before it counts.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  Dialog,
  ICommandPalette,
  InputDialog,
  showDialog,
  showErrorMessage
} from '@jupyterlab/apputils';
import type * as nbformat from '@jupyterlab/nbformat';
import { INotebookTracker } from '@jupyterlab/notebook';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import type { TranslationBundle } from '@jupyterlab/translation';

import type { AuthoringFlow } from '../model/authoringFlow';
import { ICasebookManager } from '../tokens';
import { CaseForm, linesBody } from '../widgets/caseForm';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/**
 * The authoring commands.
 */
export const authoringPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-junobench:authoring',
  description:
    'Author JunoBench cases: new casebooks, a crashed notebook saved as a case, reference fixes; each verified.',
  autoStart: true,
  requires: [ICasebookManager, INotebookTracker],
  optional: [ITranslator, ICommandPalette, ISettingRegistry],
  activate: (
    app: JupyterFrontEnd,
    manager: ICasebookManager,
    tracker: INotebookTracker,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    registry: ISettingRegistry | null
  ): void => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    // The model loads with the first authoring command, not at start-up.
    let flowInstance: AuthoringFlow | null = null;
    const getFlow = async (): Promise<AuthoringFlow> => {
      if (!flowInstance) {
        const [{ CaseAuthor }, { AuthoringFlow }] = await Promise.all([
          import('../model/authoring'),
          import('../model/authoringFlow')
        ]);
        flowInstance = new AuthoringFlow({
          author: new CaseAuthor({
            serverSettings: app.serviceManager.serverSettings,
            contents: app.serviceManager.contents,
            sessions: app.serviceManager.sessions,
            kernelName: () =>
              tracker.currentWidget?.sessionContext.session?.kernel?.name ??
              'python3',
            translate: trans.__.bind(trans)
          }),
          manager,
          trans,
          dialogs: Private.dialogs(trans),
          // With settings, the new casebook becomes the configured one.
          useCasebook: registry
            ? async path => {
                const { CASEBOOK_PLUGIN_ID } = await import('./casebook');
                await registry.set(CASEBOOK_PLUGIN_ID, 'casebookPath', path);
              }
            : undefined
        });
      }
      return flowInstance;
    };
    const current = (): NotebookPanel | null => {
      const widget = tracker.currentWidget;
      return widget && widget === app.shell.currentWidget ? widget : null;
    };

    app.commands.addCommand(CommandIDs.newCasebook, {
      label: trans.__('New JunoBench Casebook…'),
      caption: trans.__(
        'Create an empty casebook folder with the descriptor files, and use it'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: { path: { type: 'string' } }
        }
      },
      execute: async args => {
        const flow = await getFlow();
        await flow.newCasebook(typeof args.path === 'string' ? args.path : '');
      }
    });

    app.commands.addCommand(CommandIDs.saveCase, {
      label: trans.__('Save as JunoBench Case…'),
      caption: trans.__(
        'Save this crashed notebook as a case of the casebook, in the order its kernel ran the cells'
      ),
      isEnabled: () => !!current()?.sessionContext.session?.kernel,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: async () => {
        const panel = current();
        const kernel = panel?.sessionContext.session?.kernel;
        if (!panel || !kernel) {
          return;
        }
        const flow = await getFlow();
        await flow.saveCase(Private.subject(panel), kernel);
      }
    });

    app.commands.addCommand(CommandIDs.saveFix, {
      label: trans.__('Save as JunoBench Reference Fix'),
      caption: trans.__(
        "Save this notebook, which runs cleanly, as its case's reference fix"
      ),
      isEnabled: () => current() !== null && manager.casebook !== null,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: async () => {
        const panel = current();
        if (!panel || !manager.casebook) {
          return;
        }
        const flow = await getFlow();
        await flow.saveFix(Private.subject(panel));
      }
    });

    for (const command of [
      CommandIDs.newCasebook,
      CommandIDs.saveCase,
      CommandIDs.saveFix
    ]) {
      palette?.addItem({ command, category: trans.__('JunoBench') });
    }
  }
};

namespace Private {
  /**
   * A notebook panel as the subject of an authoring command: its path and its
   * content with the metadata the model fills in (kernelspec, language).
   */
  export function subject(panel: NotebookPanel): AuthoringFlow.ISubject {
    return {
      path: panel.context.path,
      // The notebook model returns its content; the document-model interface
      // it is reached through only promises JSON.
      notebook: () => panel.context.model.toJSON() as nbformat.INotebookContent
    };
  }

  /**
   * The JupyterLab dialogs the authoring flow asks and reports through.
   */
  export function dialogs(trans: TranslationBundle): AuthoringFlow.IDialogs {
    return {
      askFolder: async () => {
        const asked = await InputDialog.getText({
          title: trans.__('New JunoBench Casebook'),
          label: trans.__(
            'Folder for the new casebook (a path in the file browser; it must be new or empty)'
          ),
          text: 'my-casebook'
        });
        return asked.button.accept ? asked.value : null;
      },
      editCase: async ({ labels, notes, name, data, previous }) => {
        const result = await showDialog({
          title: trans.__('Save as JunoBench Case'),
          body: new CaseForm({
            trans,
            labels,
            value: previous ?? { ...CaseForm.emptyValue(name), data },
            notes
          }),
          buttons: [
            Dialog.cancelButton({ label: trans.__('Cancel') }),
            Dialog.okButton({ label: trans.__('Save case') })
          ]
        });
        return result.button.accept ? result.value : null;
      },
      confirmReplace: async (title, body) => {
        const replace = await showDialog({
          title,
          body,
          buttons: [
            Dialog.cancelButton({ label: trans.__('Choose another name') }),
            Dialog.warnButton({ label: trans.__('Replace it') })
          ]
        });
        return replace.button.accept;
      },
      chooseCase: async names => {
        const asked = await InputDialog.getItem({
          title: trans.__('Save as JunoBench Reference Fix'),
          label: trans.__('The case this notebook fixes'),
          items: names
        });
        return asked.button.accept ? asked.value : null;
      },
      report: async (title, message) => {
        await showErrorMessage(title, message);
      },
      inform: async (title, lines) => {
        await showDialog({
          title,
          body: linesBody(lines),
          buttons: [Dialog.okButton({ label: trans.__('OK') })]
        });
      }
    };
  }
}
