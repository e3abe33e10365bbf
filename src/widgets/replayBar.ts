/**
 * The replay bar above a working copy: Replay, Run top to bottom, Interrupt,
 * an announced status line, the verdict and the order timeline.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import type { IDrift } from '../kernel/drift';
import type { IReplayState, ReplayController } from './replayController';
import { renderExplanation } from '../state/timeline';
import { cellName } from '../i18n';

/**
 * Renders a replay controller and forwards button presses to it.
 */
export class ReplayBar extends Widget {
  /**
   * Build the bar for a controller.
   */
  constructor(options: ReplayBar.IOptions) {
    super();
    this._controller = options.controller;
    this._trans = options.trans;
    this.addClass('jp-Junobench-replayBar');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', this._trans.__('JunoBench replay'));
    this._build();
    this._controller.stateChanged.connect(this._render, this);
    this._render();
    this._controller.driftChanged.connect(this._renderDrift, this);
    this._renderDrift();
  }

  private _build(): void {
    const trans = this._trans;
    const actions = document.createElement('div');
    actions.className = 'jp-Junobench-replayActions';
    this._replay = this._button(
      trans.__('Replay'),
      trans.__(
        'Restart the kernel and run the cells in the recorded order until the crash'
      ),
      () => void this._controller.replay('recorded')
    );
    this._topToBottom = this._button(
      trans.__('Run top to bottom'),
      trans.__('Restart the kernel and run the same cells in document order'),
      () => void this._controller.replay('top-to-bottom')
    );
    this._interrupt = this._button(
      trans.__('Interrupt'),
      trans.__('Interrupt the running cell'),
      () => void this._controller.interrupt()
    );
    actions.append(this._replay, this._topToBottom, this._interrupt);
    for (const extra of this._extraButtons) {
      actions.appendChild(extra);
    }
    this._actions = actions;

    this._status = document.createElement('div');
    this._status.className = 'jp-Junobench-replayStatus';
    this._status.setAttribute('role', 'status');
    this._status.setAttribute('aria-live', 'polite');
    this._verdict = document.createElement('div');
    this._verdict.className = 'jp-Junobench-verdict';
    this._verdict.setAttribute('aria-live', 'assertive');
    this._timeline = document.createElement('ol');
    this._timeline.className = 'jp-Junobench-timeline';
    this._timeline.setAttribute('aria-label', trans.__('Run order timeline'));
    this._legend = document.createElement('div');
    this._legend.className = 'jp-Junobench-timelineLegend';
    this.node.append(
      actions,
      this._status,
      this._verdict,
      this._legend,
      this._timeline
    );
    // The kernel's drift from the benchmark pins, on a line of its own.
    this._drift = document.createElement('div');
    this._drift.className = 'jp-Junobench-drift';
    this._drift.setAttribute('role', 'note');
    this._drift.setAttribute(
      'aria-label',
      trans.__('Environment compared with the benchmark pins')
    );
    this._drift.hidden = true;
    this._verdict.after(this._drift);
    // Why the last run crashed, from its state timeline (state only, never the fix).
    this._why = document.createElement('details');
    this._why.className = 'jp-Junobench-why';
    const summary = document.createElement('summary');
    summary.textContent = trans.__('Why it crashed');
    this._whyList = document.createElement('ul');
    this._why.append(summary, this._whyList);
    this._why.hidden = true;
    this._drift.after(this._why);
  }

  /** Add a button after the replay actions (used by other plugins). */
  addButton(button: HTMLButtonElement): void {
    if (this._actions) {
      this._actions.appendChild(button);
    } else {
      this._extraButtons.push(button);
    }
  }

  private _button(
    label: string,
    title: string,
    onClick: () => void
  ): HTMLButtonElement {
    const button = document.createElement('button');
    button.className = 'jp-Junobench-button jp-mod-styled';
    button.textContent = label;
    button.title = title;
    button.addEventListener('click', onClick);
    return button;
  }

  private _render(): void {
    const state: IReplayState = this._controller.state;
    const trans = this._trans;
    // Busy until the run is over and the notebook saved.
    const busy =
      state.phase === 'starting' ||
      state.phase === 'running' ||
      this._controller.isRunning;
    this._replay.disabled = busy;
    this._topToBottom.disabled = busy;
    this._interrupt.disabled = !busy;
    this._status.textContent = state.message;
    const sentences =
      state.explanation && state.explanation.kind !== 'no-crash'
        ? renderExplanation(state.explanation, trans.__.bind(trans))
        : [];
    this._why.hidden = sentences.length === 0;
    this._whyList.textContent = '';
    for (const sentence of sentences) {
      const item = document.createElement('li');
      item.textContent = sentence;
      this._whyList.appendChild(item);
    }
    // How the last run ended and what happened to its kernel, for styling
    // and tests ('' while none has ended).
    this._status.dataset.result = state.result?.status ?? '';
    this._status.dataset.kernelFate = state.result?.kernelFate ?? '';
    let verdict = '';
    switch (state.verdict) {
      case 'as-recorded':
        verdict = trans.__('Reproduced as recorded.');
        break;
      case 'same-exception-different-message':
        verdict = trans.__(
          'Reproduced as recorded (same exception, different message).'
        );
        break;
      case 'different-crash':
        verdict = trans.__(
          'A different crash: the environment may differ from the benchmark.'
        );
        break;
      case 'no-crash':
        verdict = trans.__(
          'No crash: the environment may differ from the benchmark.'
        );
        break;
      case null:
      default:
        verdict = '';
    }
    this._verdict.textContent = verdict;
    this._verdict.dataset.verdict = state.verdict ?? '';
    this._verdict.hidden = !verdict;
    if (state.crashLine !== null && state.crashLineText !== null) {
      const line = document.createElement('code');
      line.className = 'jp-Junobench-crashLineText';
      line.textContent = trans.__(
        'line %1: %2',
        state.crashLine,
        state.crashLineText.trim()
      );
      this._verdict.hidden = false;
      this._verdict.appendChild(document.createTextNode(' '));
      this._verdict.appendChild(line);
    }

    const steps = state.steps;
    let outOfOrder = 0;
    let maxCell = -1;
    this._timeline.textContent = '';
    steps.forEach((step, i) => {
      const item = document.createElement('li');
      const stepState = state.stepStates[i] ?? 'pending';
      item.className = `jp-Junobench-step jp-Junobench-step-${stepState}`;
      const behind = step.cell < maxCell;
      if (behind) {
        outOfOrder++;
        item.classList.add('jp-mod-outOfOrder');
      }
      maxCell = Math.max(maxCell, step.cell);
      if (step.target) {
        item.classList.add('jp-mod-target');
      }
      item.textContent = step.run === 2 ? `${step.cell}↻` : String(step.cell);
      item.title = trans.__(
        'Step %1: %2%3',
        i + 1,
        cellName(step.cell - 1, step.count, trans.__.bind(trans)),
        step.run === 2 ? trans.__(' (run again)') : ''
      );
      this._timeline.appendChild(item);
    });
    this._legend.textContent =
      state.kind === 'top-to-bottom'
        ? trans.__('Top to bottom: cells in document order.')
        : trans.__(
            'Recorded order: cell numbers in the order they ran; %1 ran after a cell below them.',
            outOfOrder
          );
  }

  private _renderDrift(): void {
    const trans = this._trans;
    const report = this._controller.drift;
    const error = this._controller.driftError;
    const line = this._drift;
    if (!report) {
      line.textContent = error
        ? trans.__('Environment: could not be checked (%1).', error)
        : '';
      line.hidden = !error;
      line.dataset.differences = '';
      return;
    }
    const describe = (d: IDrift): string =>
      d.found === null
        ? trans.__('%1 not installed (pinned %2)', d.module, d.expected)
        : d.substitute
          ? trans.__(
              '%1 %2 (pinned %3, local substitute)',
              d.module,
              d.found,
              d.expected
            )
          : trans.__('%1 %2 (pinned %3)', d.module, d.found, d.expected);
    const n = report.differences.length;
    let text =
      n === 0
        ? trans.__(
            'Environment: all %1 pinned libraries match the benchmark.',
            report.checked
          )
        : trans._n(
            'Environment: %1 library differs from the benchmark pins: %2.',
            'Environment: %1 libraries differ from the benchmark pins: %2.',
            n,
            report.differences.map(describe).join(', ')
          );
    if (report.python) {
      text += ' ';
      text += trans.__(
        'Python %1 (benchmark: %2).',
        report.python.found ?? '',
        report.python.expected
      );
    }
    line.textContent = text;
    // The line is cut to one line in the bar; the tooltip holds all of it.
    line.title = `${text}\n${trans.__('Kernel environment: %1', report.prefix)}`;
    line.dataset.differences = String(n);
    line.hidden = false;
  }

  private _why!: HTMLDetailsElement;
  private _whyList!: HTMLUListElement;
  private _controller: ReplayController;
  private _trans: TranslationBundle;
  private _actions: HTMLDivElement | null = null;
  private _extraButtons: HTMLButtonElement[] = [];
  private _replay!: HTMLButtonElement;
  private _topToBottom!: HTMLButtonElement;
  private _interrupt!: HTMLButtonElement;
  private _status!: HTMLDivElement;
  private _verdict!: HTMLDivElement;
  private _timeline!: HTMLOListElement;
  private _legend!: HTMLDivElement;
  private _drift!: HTMLDivElement;
}

/**
 * A namespace for ReplayBar statics.
 */
export namespace ReplayBar {
  /** Options to build the bar. */
  export interface IOptions {
    /** The controller to render. */
    controller: ReplayController;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}
