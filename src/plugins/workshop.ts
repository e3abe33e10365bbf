/**
 * Plugin: workshops (an instructor's playlist of cases with a locked reveal
 * policy and a time box) and the cohort report over learners' exports.
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
import type { IDocumentManager } from '@jupyterlab/docmanager';
import { IDocumentManager as IDocumentManagerToken } from '@jupyterlab/docmanager';
import { FileDialog, IDefaultFileBrowser } from '@jupyterlab/filebrowser';
import type { Contents } from '@jupyterlab/services';
import { IStateDB } from '@jupyterlab/statedb';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { junobenchIcon } from '../icons';
import type { ICohortFile, ICohortProblem } from '../progress/cohort';
import { ICasebookManager, IWorkshopManager } from '../tokens';
import { WorkshopManager } from '../workshop/manager';
import {
  isWorkshopPath,
  WORKSHOP_PATTERN,
  WORKSHOP_SUFFIX,
  WorkshopFormatError
} from '../workshop/workshop';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';
import type { Translate } from '../i18n';

/** The workshop plugin id (menus in schema/workshop.json). */
export const WORKSHOP_PLUGIN_ID = 'jupyterlab-junobench:workshop';

/** The document registry's name for workshop files. */
export const WORKSHOP_FILE_TYPE = 'junobench-workshop';

/**
 * Opens workshop files, keeps the active workshop and offers the cohort report.
 */
export const workshopPlugin: JupyterFrontEndPlugin<IWorkshopManager> = {
  id: WORKSHOP_PLUGIN_ID,
  description:
    "Workshops: an instructor's playlist of cases, reveal policy and time box; and the cohort report.",
  autoStart: true,
  provides: IWorkshopManager,
  requires: [IStateDB, ICasebookManager],
  optional: [
    ITranslator,
    ICommandPalette,
    IDefaultFileBrowser,
    IDocumentManagerToken
  ],
  activate: (
    app: JupyterFrontEnd,
    state: IStateDB,
    casebooks: ICasebookManager,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    browser: IDefaultFileBrowser | null,
    docManager: IDocumentManager | null
  ): IWorkshopManager => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const __ = trans.__.bind(trans);
    const contents = app.serviceManager.contents;
    const manager = new WorkshopManager({
      state,
      read: async path => {
        const model = await contents.get(path, {
          type: 'file',
          format: 'text',
          content: true
        });
        return Private.text(model, __);
      }
    });

    // Load the workshop's casebook once per activation: after the casebook
    // settings have been applied (whichever comes last), but without fighting
    // a learner who then picks another casebook.
    let pendingCasebook: string | null = null;
    const loadWorkshopCasebook = () => {
      if (pendingCasebook === null || casebooks.loading) {
        return;
      }
      const path = pendingCasebook;
      pendingCasebook = null;
      if (casebooks.path !== path || !casebooks.casebook) {
        void casebooks.load(path);
      }
    };
    casebooks.changed.connect(loadWorkshopCasebook);
    void Promise.all([manager.ready, app.restored]).then(() => {
      pendingCasebook = manager.active?.workshop.casebook ?? null;
      loadWorkshopCasebook();
    });

    app.docRegistry.addFileType({
      name: WORKSHOP_FILE_TYPE,
      displayName: trans.__('JunoBench workshop'),
      extensions: [WORKSHOP_SUFFIX],
      pattern: WORKSHOP_PATTERN,
      mimeTypes: ['application/json'],
      contentType: 'file',
      fileFormat: 'text',
      icon: junobenchIcon
    });

    const selectedPath = (test: (model: Contents.IModel) => boolean) => {
      for (const item of browser?.selectedItems() ?? []) {
        if (test(item)) {
          return item.path;
        }
      }
      return null;
    };

    app.commands.addCommand(CommandIDs.openWorkshop, {
      label: args =>
        args.path
          ? trans.__('Start Workshop %1', String(args.path))
          : trans.__('Start JunoBench Workshop…'),
      caption: trans.__(
        'Show only the workshop’s cases in the JunoBench panel, with its reveal policy and time box'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            path: {
              type: 'string',
              description: trans.__(
                'The server path of a *%1 file',
                WORKSHOP_SUFFIX
              )
            }
          }
        }
      },
      execute: async args => {
        let path =
          typeof args.path === 'string' && args.path
            ? args.path
            : selectedPath(m => m.type === 'file' && isWorkshopPath(m.path));
        if (path === null && docManager) {
          const result = await FileDialog.getOpenFiles({
            manager: docManager,
            title: trans.__('Choose a workshop file'),
            translator: translator ?? nullTranslator,
            filter: model =>
              model.type === 'directory' || isWorkshopPath(model.path)
                ? {}
                : null
          });
          path = result.button.accept
            ? (result.value?.[0]?.path ?? null)
            : null;
          if (path === null) {
            return;
          }
        }
        if (path === null) {
          await showErrorMessage(
            trans.__('No workshop file'),
            trans.__('Select a *%1 file in the file browser.', WORKSHOP_SUFFIX)
          );
          return;
        }
        try {
          const active = await manager.open(path);
          pendingCasebook = active.workshop.casebook;
          loadWorkshopCasebook();
          await app.commands.execute(CommandIDs.openPanel);
        } catch (reason) {
          await showErrorMessage(
            trans.__('Cannot start the workshop'),
            reason instanceof WorkshopFormatError
              ? reason.render(__)
              : ((reason as Error).message ?? String(reason))
          );
        }
      }
    });

    app.commands.addCommand(CommandIDs.leaveWorkshop, {
      label: trans.__('Leave JunoBench Workshop'),
      caption: trans.__(
        'List every case of the casebook again, with your own reveal setting'
      ),
      isEnabled: () => manager.active !== null,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: async () => {
        const book = manager.active?.workshop.casebook ?? null;
        await manager.leave();
        pendingCasebook = null;
        if (book !== null) {
          // Back to the casebook of the settings.
          await casebooks.load();
        }
      }
    });
    manager.changed.connect(() =>
      app.commands.notifyCommandChanged(CommandIDs.leaveWorkshop)
    );

    let reports = 0;
    app.commands.addCommand(CommandIDs.cohortReport, {
      label: trans.__('JunoBench Cohort Report…'),
      caption: trans.__(
        "Add up learners' exported progress files (*.json) in a folder"
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            path: {
              type: 'string',
              description: trans.__('The server folder holding the exports')
            }
          }
        }
      },
      execute: async args => {
        let folder =
          typeof args.path === 'string'
            ? args.path
            : selectedPath(m => m.type === 'directory');
        if (folder === null && docManager) {
          const result = await FileDialog.getExistingDirectory({
            manager: docManager,
            title: trans.__('Choose the folder of progress exports'),
            translator: translator ?? nullTranslator
          });
          folder = result.button.accept
            ? (result.value?.[0]?.path ?? null)
            : null;
          if (folder === null) {
            return;
          }
        }
        if (folder === null) {
          folder = browser?.model.path ?? '';
        }
        try {
          const { files, unreadable } = await Private.readFolder(
            contents,
            folder,
            __
          );
          // Loaded on first use: most learners never open a cohort report.
          const [{ cohortReport }, { CohortView }] = await Promise.all([
            import('../progress/cohort'),
            import('../widgets/cohortView')
          ]);
          const report = cohortReport(files);
          const content = new CohortView({
            report: {
              ...report,
              problems: [...unreadable, ...report.problems]
            },
            folder,
            trans
          });
          const widget = new MainAreaWidget({ content });
          widget.id = `jp-junobench-cohort-${++reports}`;
          widget.title.label = trans.__('Cohort: %1', folder || '/');
          widget.title.icon = junobenchIcon;
          widget.title.closable = true;
          app.shell.add(widget, 'main');
          app.shell.activateById(widget.id);
        } catch (reason) {
          await showErrorMessage(
            trans.__('Cannot make the cohort report'),
            (reason as Error).message ?? String(reason)
          );
        }
      }
    });

    for (const command of [
      CommandIDs.openWorkshop,
      CommandIDs.leaveWorkshop,
      CommandIDs.cohortReport
    ]) {
      palette?.addItem({ command, category: trans.__('JunoBench') });
    }
    return manager;
  }
};

/** Private helpers of the workshop plugin. */
namespace Private {
  /** The text of a contents model fetched as text. */
  export function text(model: Contents.IModel, __: Translate): string {
    if (typeof model.content !== 'string') {
      throw new Error(__('not a text file'));
    }
    return model.content;
  }

  /** The `*.json` files of a server folder, and those that could not be read. */
  export async function readFolder(
    contents: Contents.IManager,
    folder: string,
    __: Translate
  ): Promise<{ files: ICohortFile[]; unreadable: ICohortProblem[] }> {
    let listing: Contents.IModel;
    try {
      listing = await contents.get(folder, {
        type: 'directory',
        content: true
      });
    } catch (reason) {
      throw new Error(
        __(
          'cannot read the folder %1: %2',
          folder || '/',
          (reason as Error).message
        )
      );
    }
    const entries = (listing.content as Contents.IModel[])
      .filter(
        m => m.type !== 'directory' && m.name.toLowerCase().endsWith('.json')
      )
      .sort((a, b) => a.name.localeCompare(b.name));
    const files: ICohortFile[] = [];
    const unreadable: ICohortProblem[] = [];
    for (const entry of entries) {
      try {
        const model = await contents.get(entry.path, {
          type: 'file',
          format: 'text',
          content: true
        });
        files.push({ name: entry.name, text: text(model, __) });
      } catch (reason) {
        unreadable.push({
          file: entry.name,
          reason: __('cannot be read (%1)', (reason as Error).message)
        });
      }
    }
    return { files, unreadable };
  }
}
