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
import { PathExt } from '@jupyterlab/coreutils';
import type * as nbformat from '@jupyterlab/nbformat';
import { INotebookTracker } from '@jupyterlab/notebook';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import type { TranslationBundle } from '@jupyterlab/translation';

import type { CaseAuthor, Settled } from '../model/authoring';
import type { INotebookJSON } from '../replay/types';
import { draftReason } from '../verify/case';
import { renderVerdictReason } from '../verify/verdict';
import { ICasebookManager } from '../tokens';
import { CaseForm, linesBody } from '../widgets/caseForm';
import type { ICaseFormValue } from '../widgets/caseForm';
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
    let authorInstance: CaseAuthor | null = null;
    const getAuthor = async (): Promise<CaseAuthor> => {
      if (!authorInstance) {
        const { CaseAuthor } = await import('../model/authoring');
        authorInstance = new CaseAuthor({
          serverSettings: app.serviceManager.serverSettings,
          contents: app.serviceManager.contents,
          sessions: app.serviceManager.sessions,
          kernelName: () =>
            tracker.currentWidget?.sessionContext.session?.kernel?.name ??
            'python3',
          translate: trans.__.bind(trans)
        });
      }
      return authorInstance;
    };
    const current = (): NotebookPanel | null => {
      const widget = tracker.currentWidget;
      return widget && widget === app.shell.currentWidget ? widget : null;
    };
    const fail = (title: string, reason: unknown) =>
      showErrorMessage(
        title,
        reason instanceof Error ? reason.message : String(reason)
      );

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
        let path = typeof args.path === 'string' ? args.path : '';
        if (!path) {
          const asked = await InputDialog.getText({
            title: trans.__('New JunoBench Casebook'),
            label: trans.__(
              'Folder for the new casebook (a path in the file browser; it must be new or empty)'
            ),
            text: 'my-casebook'
          });
          if (!asked.button.accept || !asked.value?.trim()) {
            return;
          }
          path = asked.value.trim();
        }
        path = path.replace(/^\/+|\/+$/g, '');
        const { CASEBOOK_PLUGIN_ID } = await import('./casebook');
        const author = await getAuthor();
        try {
          await author.newCasebook(path);
        } catch (reason) {
          return fail(trans.__('The casebook was not created'), reason);
        }
        if (registry) {
          await registry.set(CASEBOOK_PLUGIN_ID, 'casebookPath', path);
        } else {
          await manager.load(path);
        }
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
        const book = manager.casebook;
        if (!book) {
          return fail(
            trans.__('No casebook'),
            trans.__(
              'Choose a casebook (or create one with "New JunoBench Casebook…") first.'
            )
          );
        }
        const { describeNameProblem, describeNote, describeRecordProblem } =
          await import('../authoring/messages');
        const { caseNameProblem, caseSpec, labelSets, suggestName } =
          await import('../authoring/spec');
        const author = await getAuthor();
        const nb = Private.notebookJSON(panel);
        let recording;
        try {
          recording = await author.record(kernel, nb);
        } catch (reason) {
          return fail(trans.__('The order could not be recorded'), reason);
        }
        if (!recording.ok) {
          return fail(
            trans.__('Nothing to save'),
            describeRecordProblem(recording.problem, trans.__.bind(trans))
          );
        }
        const notes = recording.notes.map(note =>
          describeNote(note, trans.__.bind(trans))
        );
        let value = CaseForm.emptyValue(suggestName(book.cases));
        // Offer the files the code names that exist beside the notebook.
        const folder = PathExt.dirname(panel.context.path);
        value.data = await author.inputFiles(folder, nb);
        let update = false;
        for (;;) {
          const result = await showDialog({
            title: trans.__('Save as JunoBench Case'),
            body: new CaseForm({
              trans,
              labels: labelSets(book.cases),
              value,
              notes
            }),
            buttons: [
              Dialog.cancelButton({ label: trans.__('Cancel') }),
              Dialog.okButton({ label: trans.__('Save case') })
            ]
          });
          if (!result.button.accept || !result.value) {
            return;
          }
          value = result.value;
          const problem = caseNameProblem(value.name, book.cases);
          if (problem === null) {
            break;
          }
          if (problem.code === 'exists') {
            const replace = await showDialog({
              title: trans.__('Replace case %1?', value.name),
              body: describeNameProblem(
                value.name,
                problem,
                trans.__.bind(trans)
              ),
              buttons: [
                Dialog.cancelButton({ label: trans.__('Choose another name') }),
                Dialog.warnButton({ label: trans.__('Replace it') })
              ]
            });
            if (replace.button.accept) {
              update = true;
              break;
            }
            continue;
          }
          await fail(
            trans.__('Choose another name'),
            describeNameProblem(value.name, problem, trans.__.bind(trans))
          );
        }
        const spec = caseSpec({
          name: value.name,
          original: nb,
          reproduced: recording.reproduced,
          target: recording.target,
          data: value.data,
          update,
          description: Private.description(value)
        });
        let warnings: string[];
        try {
          ({ warnings } = await author.writeCase(manager.path, folder, spec));
        } catch (reason) {
          return fail(trans.__('The case was not saved'), reason);
        }
        author.rememberSaved(panel.context.path, manager.path, value.name);
        await Private.verifyAndReport(
          author,
          manager,
          value.name,
          null,
          trans,
          warnings
        );
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
        const book = manager.casebook;
        if (!panel || !book) {
          return;
        }
        const { readWorkingCopyMeta } = await import('../model/workingCopy');
        const { fixedNotebook } = await import('../authoring/record');
        const author = await getAuthor();
        const meta = readWorkingCopyMeta(panel.context.model.metadata);
        let name =
          author.savedAs(panel.context.path)?.name ?? meta?.case ?? null;
        if (!name) {
          const asked = await InputDialog.getItem({
            title: trans.__('Save as JunoBench Reference Fix'),
            label: trans.__('The case this notebook fixes'),
            items: book.cases.map(c => c.name)
          });
          if (!asked.button.accept || !asked.value) {
            return;
          }
          name = asked.value;
        }
        const fixed = fixedNotebook(Private.notebookJSON(panel));
        await Private.verifyAndReport(author, manager, name, fixed, trans, []);
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
   * The notebook of a panel as JSON, with the metadata the model fills in
   * (kernelspec, language) ensured.
   */
  export function notebookJSON(
    panel: NotebookPanel
  ): nbformat.INotebookContent {
    // The notebook model returns its content; the document-model interface it
    // is reached through only promises JSON.
    return panel.context.model.toJSON() as nbformat.INotebookContent;
  }

  /**
   * The description of a case from the form.
   */
  export function description(value: ICaseFormValue) {
    return {
      labels: {
        rootCause: value.rootCause,
        crashType: value.crashType,
        pipelineStage: value.pipelineStage,
        mlBug: value.mlBug
      },
      library: value.library,
      diagnosis: value.diagnosis,
      datasets: [
        {
          title: value.datasetTitle,
          license: value.datasetLicense,
          url: value.datasetUrl
        }
      ]
    };
  }

  /**
   * Reload the casebook, verify the case (with `fixed` as its reference fix
   * when given, written only when it passes), mark it a draft or verified, and
   * show the result.
   */
  export async function verifyAndReport(
    author: CaseAuthor,
    manager: ICasebookManager,
    name: string,
    fixed: INotebookJSON | null,
    trans: TranslationBundle,
    warnings: string[]
  ): Promise<void> {
    const casebook = manager.path;
    await manager.load(casebook);
    const c = manager.find(name);
    if (!c) {
      await showErrorMessage(
        trans.__('Case not found'),
        trans.__('The casebook has no case %1 after saving it.', name)
      );
      return;
    }
    let settled: Settled;
    try {
      settled = await author.settle(casebook, c, fixed);
    } catch (reason) {
      await showErrorMessage(
        trans.__('The case could not be verified and saved'),
        (reason as Error).message
      );
      return;
    }
    if (settled.kind === 'fix-refused') {
      await showErrorMessage(
        trans.__('The fix was not saved'),
        trans.__(
          'This notebook does not pass as the reference fix of %1: %2',
          name,
          renderVerdictReason(
            settled.verification.fixed.why,
            trans.__.bind(trans)
          )
        )
      );
      return;
    }
    const { verification, draft: reason } = settled;
    await manager.load(casebook);
    const lines = [
      reason === null
        ? trans.__(
            'Verified: %1 crashes as recorded (%2) and its reference fix passes. The case counts.',
            name,
            verification.reproduced.observed ?? c.ename
          )
        : trans.__(
            '%1 is saved as a draft (DRAFT.md in its folder says why): %2',
            name,
            draftReason(verification, trans.__.bind(trans)) ?? reason
          ),
      ...warnings
    ];
    await showDialog({
      title:
        reason === null
          ? trans.__('JunoBench case verified')
          : trans.__('JunoBench case saved as a draft'),
      body: linesBody(lines),
      buttons: [Dialog.okButton({ label: trans.__('OK') })]
    });
  }
}
