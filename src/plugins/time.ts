/**
 * Plugin: counts the time spent on each case, while its working copy is the
 * current widget of a visible JupyterLab, into the learner's progress.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { readWorkingCopyMeta } from '../model/workingCopy';
import { ActiveTimer } from '../progress/timer';
import { IProgressTracker } from '../tokens';

/** How often the counted time is saved, in ms. */
const SAVE_EVERY_MS = 30 * 1000;

/**
 * Feeds the time spent per case to the progress tracker.
 */
export const timePlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-junobench:time',
  description:
    'Counts the time spent on each case while its working copy is in front of the learner.',
  autoStart: true,
  requires: [IProgressTracker, INotebookTracker],
  activate: (
    app: JupyterFrontEnd,
    progress: IProgressTracker,
    notebooks: INotebookTracker
  ): void => {
    const timer = new ActiveTimer();
    const caseInFront = (): string | null => {
      if (document.visibilityState === 'hidden') {
        return null;
      }
      const widget = app.shell.currentWidget;
      if (!(widget instanceof NotebookPanel) || !notebooks.has(widget)) {
        return null;
      }
      const meta = readWorkingCopyMeta({
        junobench: widget.model?.getMetadata('junobench')
      });
      return meta?.case ?? null;
    };
    const save = () => {
      for (const [name, ms] of timer.take(Date.now())) {
        void progress.addTime(name, Math.round(ms)).catch(() => undefined);
      }
    };
    const refocus = () => {
      timer.focus(caseInFront(), Date.now());
      if (timer.current === null) {
        save();
      }
    };
    const touch = () => timer.touch(Date.now());

    app.shell.currentChanged?.connect(refocus);
    notebooks.currentChanged.connect(refocus);
    notebooks.widgetAdded.connect((_, panel) => {
      void panel.context.ready.then(refocus);
    });
    document.addEventListener('visibilitychange', refocus);
    document.addEventListener('keydown', touch, {
      capture: true,
      passive: true
    });
    document.addEventListener('pointerdown', touch, {
      capture: true,
      passive: true
    });
    window.addEventListener('pagehide', save);
    window.setInterval(save, SAVE_EVERY_MS);
    void app.restored.then(refocus);
  }
};
