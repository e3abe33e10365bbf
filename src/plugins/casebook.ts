/**
 * Plugin: the casebook manager, its settings and the casebook commands.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { FileDialog } from '@jupyterlab/filebrowser';
import type { IDocumentManager } from '@jupyterlab/docmanager';
import { IDocumentManager as IDocumentManagerToken } from '@jupyterlab/docmanager';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { CasebookManager } from '../model/casebookManager';
import { ICasebookManager } from '../tokens';
import { CommandIDs } from './commands';
import { TRANSLATION_DOMAIN } from '../i18n';

/** The casebook plugin id (its settings live in schema/casebook.json). */
export const CASEBOOK_PLUGIN_ID = 'jupyterlab-junobench:casebook';

/**
 * Loads the casebook named in the settings, an auto-detected one, or the demo.
 */
export const casebookPlugin: JupyterFrontEndPlugin<ICasebookManager> = {
  id: CASEBOOK_PLUGIN_ID,
  description:
    'Finds and loads the JunoBench casebook through the Jupyter server.',
  autoStart: true,
  provides: ICasebookManager,
  optional: [ISettingRegistry, ITranslator, IDocumentManagerToken],
  activate: (
    app: JupyterFrontEnd,
    registry: ISettingRegistry | null,
    translator: ITranslator | null,
    docManager: IDocumentManager | null
  ): ICasebookManager => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    const manager = new CasebookManager({
      contents: app.serviceManager.contents,
      serverSettings: app.serviceManager.serverSettings,
      translate: trans.__.bind(trans)
    });
    let settings: ISettingRegistry.ISettings | null = null;

    const apply = () => {
      if (!settings) {
        return;
      }
      manager.configuredPath =
        (settings.get('casebookPath').composite as string) ?? '';
      manager.autoDetect =
        (settings.get('autoDetect').composite as boolean) ?? true;
      void manager.load();
    };

    app.commands.addCommand(CommandIDs.reloadCasebook, {
      label: trans.__('Reload JunoBench Casebook'),
      caption: trans.__('Read the casebook again from the server'),
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => manager.load()
    });

    app.commands.addCommand(CommandIDs.chooseCasebook, {
      label: trans.__('Choose JunoBench Casebook…'),
      caption: trans.__(
        'Pick a folder laid out like JunoBench as the casebook'
      ),
      isEnabled: () => docManager !== null,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: async () => {
        if (!docManager) {
          return;
        }
        const result = await FileDialog.getExistingDirectory({
          manager: docManager,
          title: trans.__('Choose a casebook folder'),
          translator: translator ?? nullTranslator
        });
        const chosen = result.value?.[0];
        if (!result.button.accept || !chosen) {
          return;
        }
        if (settings) {
          await settings.set('casebookPath', chosen.path);
        } else {
          manager.configuredPath = chosen.path;
          await manager.load();
        }
      }
    });

    if (registry) {
      void registry
        .load(CASEBOOK_PLUGIN_ID)
        .then(loaded => {
          settings = loaded;
          loaded.changed.connect(apply);
          apply();
        })
        .catch(reason => {
          console.error(
            'jupyterlab-junobench: cannot load casebook settings',
            reason
          );
          void manager.load();
        });
    } else {
      void manager.load();
    }
    return manager;
  }
};
