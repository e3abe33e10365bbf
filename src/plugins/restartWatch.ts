/**
 * Plugin: watches the kernel restarts a learner asks for in a working copy
 * (the toolbar, the Kernel menu, "Restart and Run All"), and tells the learner
 * when the kernel went silent after one and what was done about it
 * (docs/faults.md, "The restart race").
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import type { TranslationBundle } from '@jupyterlab/translation';

import { TRANSLATION_DOMAIN } from '../i18n';
import type { RestartWatch } from '../kernel/restartWatch';
import { IWorkingCopies } from '../tokens';

/**
 * Watches every working copy's restarts and shows each step of a silence as
 * one notification, updated in place.
 */
export const restartWatchPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-junobench:restart-watch',
  description:
    "Notices a working copy's kernel that goes silent after a restart the learner asked for, restarts or replaces it, and says so.",
  autoStart: true,
  requires: [IWorkingCopies],
  optional: [ITranslator],
  activate: (
    app: JupyterFrontEnd,
    copies: IWorkingCopies,
    translator: ITranslator | null
  ): void => {
    const trans = (translator ?? nullTranslator).load(TRANSLATION_DOMAIN);
    copies.added.connect(async (_, copy) => {
      // Loaded with the first working copy, not before the application starts.
      const { RestartWatch } = await import('../kernel/restartWatch');
      if (copy.panel.isDisposed) {
        return;
      }
      const watch = new RestartWatch({ session: copy.panel.sessionContext });
      let id: string | null = null;
      watch.event.connect((__, event) => {
        const { message, type } = Private.word(event, copy.caseName, trans);
        const autoClose = type === 'success' ? 8000 : false;
        if (id === null) {
          id = Notification.emit(message, type, { autoClose });
        } else {
          Notification.update({ id, message, type, autoClose });
        }
        // A warning is updated by the next step; the last step closes the story.
        if (type !== 'warning') {
          id = null;
        }
      });
      copy.panel.disposed.connect(() => watch.dispose());
    });
  }
};

namespace Private {
  /** The learner's words for a step of a watch. */
  export function word(
    event: RestartWatch.IEvent,
    caseName: string,
    trans: TranslationBundle
  ): { message: string; type: 'warning' | 'success' | 'error' } {
    switch (event.code) {
      case 'silent':
        return {
          message: trans.__(
            'The kernel of %1 went silent after its restart; restarting it again (%2)…',
            caseName,
            event.silence
          ),
          type: 'warning'
        };
      case 'answered':
        return {
          message: trans.__(
            'The kernel of %1 answers again after another restart.',
            caseName
          ),
          type: 'success'
        };
      case 'replacing':
        return {
          message: trans.__(
            'The kernel of %1 stayed silent; starting a new "%2" kernel…',
            caseName,
            event.kernel
          ),
          type: 'warning'
        };
      case 'replaced':
        return {
          message: trans.__(
            'The kernel of %1 was replaced by a new "%2" kernel, which answers.',
            caseName,
            event.kernel
          ),
          type: 'success'
        };
      case 'lost':
        return {
          message: trans.__(
            'The kernel of %1 stayed silent and no new kernel answered (%2). Choose a kernel again from the Kernel menu.',
            caseName,
            event.error
          ),
          type: 'error'
        };
    }
  }
}
