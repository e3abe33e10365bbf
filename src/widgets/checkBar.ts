/**
 * The check bar under the replay bar: "Check my fix" and the verdict with its
 * reasons, announced to screen readers.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import type { CheckController } from './checkController';
import { DiagnosisForm } from './diagnosisForm';

/**
 * Renders a check controller and forwards the button to it.
 */
export class CheckBar extends Widget {
  /**
   * Build the bar.
   */
  constructor(options: CheckBar.IOptions) {
    super();
    this._controller = options.controller;
    this._trans = options.trans;
    this.addClass('jp-Junobench-checkBar');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', this._trans.__('JunoBench check'));
    this._button = document.createElement('button');
    this._button.className = 'jp-Junobench-button jp-mod-styled jp-mod-accept';
    this._button.textContent = this._trans.__('Check my fix');
    this._button.title = this._trans.__(
      'Run your notebook from a fresh kernel and judge the repair'
    );
    this._button.addEventListener('click', () => void this._controller.check());
    this._result = document.createElement('div');
    this._result.className = 'jp-Junobench-checkResult';
    this._result.setAttribute('role', 'status');
    this._result.setAttribute('aria-live', 'polite');
    this._reasons = document.createElement('ul');
    this._reasons.className = 'jp-Junobench-checkReasons';
    this._reveal = document.createElement('button');
    this._reveal.className = 'jp-Junobench-button jp-mod-styled';
    this._reveal.textContent = this._trans.__('Reveal diagnosis');
    this._reveal.addEventListener('click', () => void options.reveal.open());
    this._giveUp = document.createElement('button');
    this._giveUp.className = 'jp-Junobench-button jp-mod-styled';
    this._giveUp.textContent = this._trans.__('Give up and reveal');
    this._giveUp.title = this._trans.__(
      'Counts as an attempt, then shows the diagnosis and the reference fix'
    );
    this._giveUp.addEventListener('click', () => void options.reveal.giveUp());
    this._revealState = options.reveal.state;
    this._hint = document.createElement('button');
    this._hint.className = 'jp-Junobench-button jp-mod-styled';
    this._hint.textContent = this._trans.__('Hint');
    this._hint.title = this._trans.__(
      'Open the next hint (each one is recorded)'
    );
    this._hint.addEventListener(
      'click',
      () => void this._controller.nextHint()
    );
    this._hints = document.createElement('ol');
    this._hints.className = 'jp-Junobench-hints';
    this._hints.setAttribute('aria-label', this._trans.__('Hints'));
    this._hints.setAttribute('aria-live', 'polite');
    this._diagnosis = options.diagnosis
      ? new DiagnosisForm(options.diagnosis)
      : null;
    this.node.append(
      this._button,
      this._hint,
      this._reveal,
      this._giveUp,
      this._result,
      this._reasons,
      this._hints
    );
    if (this._diagnosis) {
      this.node.appendChild(this._diagnosis.node);
    }
    this._controller.stateChanged.connect(this._render, this);
    this._render();
  }

  /** Render after a change elsewhere (progress, settings). */
  protected onUpdateRequest(): void {
    this._render();
  }

  private _render(): void {
    const state = this._controller.state;
    this._button.disabled = state.running;
    const reveal = this._revealState();
    this._reveal.disabled = !reveal.canReveal;
    this._reveal.title = reveal.canReveal
      ? this._trans.__('Show the diagnosis and the reference fix')
      : reveal.why;
    this._giveUp.hidden = !reveal.canGiveUp || reveal.canReveal;
    this._result.textContent = state.message;
    this._result.dataset.passed = state.verdict
      ? String(state.verdict.passed)
      : '';
    this._hint.disabled = state.hintsDone;
    this._hints.textContent = '';
    for (const hint of state.hints) {
      const item = document.createElement('li');
      item.value = hint.step;
      item.textContent = `${hint.title}: ${hint.text}`;
      this._hints.appendChild(item);
    }
    this._reasons.textContent = '';
    for (const reason of state.reasons) {
      const item = document.createElement('li');
      item.textContent = reason;
      this._reasons.appendChild(item);
    }
    this._diagnosis?.render();
  }

  private _diagnosis: DiagnosisForm | null;
  private _hint: HTMLButtonElement;
  private _hints: HTMLOListElement;
  private _reveal: HTMLButtonElement;
  private _giveUp: HTMLButtonElement;
  private _revealState: () => CheckBar.IRevealState;
  private _controller: CheckController;
  private _trans: TranslationBundle;
  private _button: HTMLButtonElement;
  private _result: HTMLDivElement;
  private _reasons: HTMLUListElement;
}

/**
 * A namespace for CheckBar statics.
 */
export namespace CheckBar {
  /** Whether the reveal is open, and why not. */
  export interface IRevealState {
    /** The reveal may be shown. */
    canReveal: boolean;
    /** Giving up would open it. */
    canGiveUp: boolean;
    /** Why the reveal is closed, for the button's tooltip. */
    why: string;
  }

  /** Options to build the bar. */
  export interface IOptions {
    /** The controller to render. */
    controller: CheckController;
    /** The reveal actions. */
    reveal: {
      /** The reveal state now. */
      state: () => IRevealState;
      /** Show the reveal. */
      open: () => Promise<void>;
      /** Give up (an attempt), then show the reveal. */
      giveUp: () => Promise<void>;
    };
    /** The self-diagnosis form, when progress is kept. */
    diagnosis?: DiagnosisForm.IOptions;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}
