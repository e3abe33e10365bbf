/**
 * Marks a working copy's cells from its replay state: the running cell, the
 * crashed cell and its crash line. Renders only; the replay model decides.
 */
import type { Cell } from '@jupyterlab/cells';
import type { CodeMirrorEditor } from '@jupyterlab/codemirror';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { nullTranslator } from '@jupyterlab/translation';
import type { TranslationBundle } from '@jupyterlab/translation';
import type { IDisposable } from '@lumino/disposable';
import { Signal } from '@lumino/signaling';

import { TRANSLATION_DOMAIN } from '../i18n';
import type { IReplayState } from '../model/replayModel';
import type { IReplay } from '../tokens';
import {
  crashLineExtension,
  hasCrashLineField,
  setCrashLine
} from './crashLine';
import type { ICrashLine } from './crashLine';

/** The class of the cell a replay is running. */
const RUNNING_CLASS = 'jp-Junobench-runningCell';

/** The class of the cell a replay crashed in. */
const CRASH_CLASS = 'jp-Junobench-crashCell';

/**
 * Shows a replay's progress and crash on the cells of its notebook panel.
 */
export class CellMarks implements IDisposable {
  /**
   * Follow a replay model's state on its panel's cells until either is disposed.
   */
  constructor(options: CellMarks.IOptions) {
    this._panel = options.panel;
    this._trans = options.trans ?? nullTranslator.load(TRANSLATION_DOMAIN);
    const replay = options.replay;
    this._phase = replay.state.phase;
    replay.stateChanged.connect(this._onStateChanged, this);
    this._panel.disposed.connect(this.dispose, this);
    this._onStateChanged(replay, replay.state);
  }

  /** Whether the marks are disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stop following the replay; the marks already shown stay. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._running = null;
    Signal.clearData(this);
  }

  private _onStateChanged(_: unknown, state: IReplayState): void {
    if (this._isDisposed || this._panel.isDisposed) {
      return;
    }
    // A new run starts on a cleared notebook: the last run's marks go with
    // its outputs.
    if (state.phase === 'running' && this._phase !== 'running') {
      this._clear();
    }
    this._phase = state.phase;
    this._showRunning(state.runningCell);
    if (state.phase === 'finished' && state.result !== this._shownResult) {
      this._shownResult = state.result;
      this._showCrash(state);
    }
  }

  /** Move the running mark to a cell (1-based) and keep that cell in view. */
  private _showRunning(cell: number | null): void {
    const widget = cell !== null ? this._cellAt(cell) : null;
    if (widget === this._running) {
      return;
    }
    this._running?.removeClass(RUNNING_CLASS);
    this._running = widget;
    if (widget) {
      widget.addClass(RUNNING_CLASS);
      const notebook = this._panel.content;
      notebook.activeCellIndex = notebook.widgets.indexOf(widget);
      void notebook.scrollToCell(widget, 'smart');
    }
  }

  /** Mark the cell and line a finished run crashed in. */
  private _showCrash(state: IReplayState): void {
    if (state.result?.status !== 'crashed' || state.crashCell === null) {
      return;
    }
    const widget = this._cellAt(state.crashCell);
    if (!widget) {
      return;
    }
    widget.addClass(CRASH_CLASS);
    if (state.crashLine !== null) {
      Private.markLine(widget, {
        line: state.crashLine,
        title: this._trans.__('The crash happened on this line')
      });
    }
  }

  /** Take every replay mark off every cell. */
  private _clear(): void {
    for (const widget of this._panel.content.widgets) {
      widget.removeClass(CRASH_CLASS);
      widget.removeClass(RUNNING_CLASS);
      Private.markLine(widget, null);
    }
    this._running = null;
  }

  /** The cell widget at a 1-based document position, if there is one. */
  private _cellAt(cell: number): Cell | null {
    return this._panel.content.widgets[cell - 1] ?? null;
  }

  private _panel: NotebookPanel;
  private _trans: TranslationBundle;
  private _phase: IReplayState['phase'];
  private _running: Cell | null = null;
  private _shownResult: IReplayState['result'] = null;
  private _isDisposed = false;
}

/**
 * A namespace for CellMarks statics.
 */
export namespace CellMarks {
  /** Options to create the marks of a working copy. */
  export interface IOptions {
    /** The notebook panel with the working copy. */
    panel: NotebookPanel;
    /** The working copy's replay model. */
    replay: IReplay;
    /** The words of the crash line's tooltip (English without them). */
    trans?: TranslationBundle;
  }
}

namespace Private {
  /**
   * Mark a 1-based line of a cell's editor as the crash line and put the
   * cursor there, or take the mark off (null).
   */
  export function markLine(widget: Cell, line: ICrashLine | null): void {
    const editor = widget.editor as CodeMirrorEditor | null;
    const view = editor?.editor;
    if (!editor || !view) {
      return;
    }
    if (!hasCrashLineField(view)) {
      if (line === null) {
        return;
      }
      editor.injectExtension(crashLineExtension);
    }
    view.dispatch({ effects: setCrashLine.of(line) });
    if (line !== null) {
      editor.setCursorPosition({ line: line.line - 1, column: 0 });
    }
  }
}
