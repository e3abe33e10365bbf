/**
 * The case header above a working copy: one slim toolbar of JupyterLab
 * commands (Replay, Run top to bottom, Interrupt, Check my fix, Hint,
 * Reveal, State) with a status line, and a collapsible details drawer for
 * the order timeline, the environment drift, why it crashed, the check's
 * reasons, the hints and the self-diagnosis.
 *
 * It renders the replay and check controllers; every button is a command
 * (`CommandToolbarButton`), so the palette, shortcuts and the header do the
 * same thing. The header sizes itself to its content (the notebook panel's
 * content header is a box layout that sizes children by their CSS minimum),
 * so nothing in it is cut off or covered.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { CommandToolbarButton, Toolbar } from '@jupyterlab/ui-components';
import type { CommandRegistry } from '@lumino/commands';
import { MessageLoop } from '@lumino/messaging';
import type { Message } from '@lumino/messaging';
import { Panel, Widget } from '@lumino/widgets';

import { cellName } from '../i18n';
import { renderExplanation } from '../state/timeline';
import type { CheckController, ICheckState } from '../model/checkController';
import { DiagnosisForm } from './diagnosisForm';
import { environmentLine } from './environmentLine';
import type { IReplayState, ReplayController } from '../model/replayController';

/**
 * Renders a working copy's replay and check controllers.
 */
export class CaseHeader extends Panel {
  /**
   * Build the header for one working copy.
   */
  constructor(options: CaseHeader.IOptions) {
    super();
    this._replay = options.replay;
    this._check = options.check;
    this._trans = options.trans;
    this.addClass('jp-Junobench-caseHeader');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', this._trans.__('JunoBench case'));

    this._toolbar = new Toolbar();
    this._toolbar.addClass('jp-Junobench-headerToolbar');
    this._toolbar.node.setAttribute(
      'aria-label',
      this._trans.__('JunoBench case actions')
    );
    for (const item of options.buttons) {
      this._toolbar.addItem(
        item.name,
        new CommandToolbarButton({
          commands: options.commands,
          id: item.command,
          args: item.args,
          label: item.label,
          caption: item.caption
        })
      );
    }
    this._toggle = document.createElement('button');
    this._toggle.className = 'jp-Junobench-drawerToggle';
    this._toggle.type = 'button';
    this._toggle.addEventListener('click', () =>
      this.setDrawerOpen(!this._open)
    );
    const toggleItem = new Widget({ node: this._toggle });
    this._toolbar.addItem('spacer', Toolbar.createSpacerItem());
    this._toolbar.addItem('details', toggleItem);
    this.addWidget(this._toolbar);

    this._line = new Widget();
    this._line.addClass('jp-Junobench-headerStatus');
    this.addWidget(this._line);
    this._drawer = new Widget();
    this._drawer.addClass('jp-Junobench-drawer');
    this._drawer.id = `jp-junobench-drawer-${Private.nextId()}`;
    this._drawer.node.setAttribute('role', 'region');
    this._drawer.node.setAttribute(
      'aria-label',
      this._trans.__('Case details')
    );
    this._toggle.setAttribute('aria-controls', this._drawer.id);
    this.addWidget(this._drawer);
    this._diagnosis = options.diagnosis
      ? new DiagnosisForm(options.diagnosis)
      : null;
    this._build();
    this.setDrawerOpen(false);

    this._replay.stateChanged.connect(this._renderReplay, this);
    this._replay.driftChanged.connect(this._renderDrift, this);
    this._check.stateChanged.connect(this._renderCheck, this);
    this._renderReplay();
    this._renderDrift();
    this._renderCheck();
    // Grow and shrink with the content (see the module comment).
    this._observer = new ResizeObserver(() => this._fitToContent());
    for (const part of [this._toolbar, this._line, this._drawer]) {
      this._observer.observe(part.node);
    }
  }

  /** Whether the details drawer is open. */
  get drawerOpen(): boolean {
    return this._open;
  }

  /** Open or close the details drawer. */
  setDrawerOpen(open: boolean): void {
    this._open = open;
    this._drawer.setHidden(!open);
    this._toggle.setAttribute('aria-expanded', String(open));
    this._toggle.textContent = open
      ? this._trans.__('Hide details')
      : this._trans.__('Details');
    this._toggle.title = open
      ? this._trans.__(
          'Hide the timeline, environment, reasons, hints and self-diagnosis'
        )
      : this._trans.__(
          'Show the timeline, environment, reasons, hints and self-diagnosis'
        );
    this._fitToContent();
  }

  /** Stop observing the content. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._observer.disconnect();
    super.dispose();
  }

  /** Render again after a change elsewhere (progress, the reveal policy). */
  protected onUpdateRequest(msg: Message): void {
    super.onUpdateRequest(msg);
    this._renderCheck();
  }

  /** Fit to the content once attached. */
  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    this._fitToContent();
  }

  private _build(): void {
    const trans = this._trans;
    this._status = document.createElement('span');
    this._status.className = 'jp-Junobench-replayStatus';
    this._status.setAttribute('role', 'status');
    this._status.setAttribute('aria-live', 'polite');
    this._verdict = document.createElement('span');
    this._verdict.className = 'jp-Junobench-verdict';
    this._verdict.setAttribute('aria-live', 'assertive');
    this._result = document.createElement('span');
    this._result.className = 'jp-Junobench-checkResult';
    this._result.setAttribute('role', 'status');
    this._result.setAttribute('aria-live', 'polite');
    this._line.node.append(this._status, this._verdict, this._result);

    const drawer = this._drawer.node;
    this._drift = document.createElement('div');
    this._drift.className = 'jp-Junobench-drift';
    this._drift.setAttribute('role', 'note');
    this._drift.setAttribute(
      'aria-label',
      trans.__('Environment compared with the benchmark pins')
    );
    // Why the last run crashed, from its state timeline (state only, never the fix).
    this._why = document.createElement('details');
    this._why.className = 'jp-Junobench-why';
    this._why.open = true;
    const summary = document.createElement('summary');
    summary.textContent = trans.__('Why it crashed');
    this._whyList = document.createElement('ul');
    this._why.append(summary, this._whyList);
    this._legend = document.createElement('div');
    this._legend.className = 'jp-Junobench-timelineLegend';
    this._timeline = document.createElement('ol');
    this._timeline.className = 'jp-Junobench-timeline';
    this._timeline.setAttribute('aria-label', trans.__('Run order timeline'));
    this._reasons = document.createElement('ul');
    this._reasons.className = 'jp-Junobench-checkReasons';
    this._reasons.setAttribute('aria-label', trans.__('Reasons'));
    this._hints = document.createElement('ol');
    this._hints.className = 'jp-Junobench-hints';
    this._hints.setAttribute('aria-label', trans.__('Hints'));
    this._hints.setAttribute('aria-live', 'polite');
    drawer.append(
      this._reasons,
      this._hints,
      this._why,
      this._legend,
      this._timeline,
      this._drift
    );
    if (this._diagnosis) {
      drawer.appendChild(this._diagnosis.node);
    }
  }

  /**
   * Set the header's CSS minimum to its content's height and ask the
   * content header to lay out again.
   */
  private _fitToContent(): void {
    const style = getComputedStyle(this.node);
    const padding =
      (parseFloat(style.paddingTop) || 0) +
      (parseFloat(style.paddingBottom) || 0) +
      (parseFloat(style.borderTopWidth) || 0) +
      (parseFloat(style.borderBottomWidth) || 0);
    let height = padding;
    for (const part of [this._toolbar, this._line, this._drawer]) {
      if (!part.isHidden) {
        height += part.node.offsetHeight;
      }
    }
    const value = `${Math.ceil(height)}px`;
    if (this.node.style.minHeight !== value) {
      this.node.style.minHeight = value;
      if (this.parent) {
        MessageLoop.postMessage(this.parent, Widget.Msg.FitRequest);
      }
    }
  }

  private _renderReplay(): void {
    const state: IReplayState = this._replay.state;
    const trans = this._trans;
    this._status.textContent = state.message;
    this._status.hidden = !state.message;
    // How the last run ended and what happened to its kernel, for styling
    // and tests ('' while none has ended).
    this._status.dataset.result = state.result?.status ?? '';
    this._status.dataset.kernelFate = state.result?.kernelFate ?? '';
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
      if (step.cell < maxCell) {
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
    this._legend.textContent = !steps.length
      ? ''
      : state.kind === 'top-to-bottom'
        ? trans.__('Top to bottom: cells in document order.')
        : trans.__(
            'Recorded order: cell numbers in the order they ran; %1 ran after a cell below them.',
            outOfOrder
          );
    this._legend.hidden = !steps.length;
    // A run that starts opens the drawer once: its timeline is the point.
    const runKey = `${state.kind}:${state.phase === 'idle' ? '' : steps.length}`;
    if (
      (state.phase === 'starting' || state.phase === 'running') &&
      runKey !== this._lastRun
    ) {
      this._lastRun = runKey;
      this.setDrawerOpen(true);
    }
    if (state.phase === 'finished') {
      this._lastRun = '';
    }
    this._fitToContent();
  }

  private _renderDrift(): void {
    const trans = this._trans;
    const report = this._replay.drift;
    const error = this._replay.driftError;
    const line = this._drift;
    if (!report) {
      line.textContent = error
        ? trans.__('Environment: could not be checked (%1).', error)
        : '';
      line.hidden = !error;
      line.dataset.differences = '';
      line.dataset.environment = '';
      return;
    }
    const text = environmentLine(report, trans);
    line.textContent = text;
    line.title = `${text}\n${trans.__('Kernel environment: %1', report.prefix)}`;
    line.dataset.differences = String(report.differences.length);
    line.dataset.environment = report.environment;
    line.hidden = false;
    this._fitToContent();
  }

  private _renderCheck(): void {
    const state: ICheckState = this._check.state;
    this._result.textContent = state.message;
    this._result.hidden = !state.message;
    this._result.dataset.passed = state.verdict
      ? String(state.verdict.passed)
      : '';
    this._result.dataset.grade = state.verdict?.grade ?? '';
    this._hints.textContent = '';
    for (const hint of state.hints) {
      const item = document.createElement('li');
      item.value = hint.step;
      item.textContent = `${hint.title}: ${hint.text}`;
      this._hints.appendChild(item);
    }
    this._hints.hidden = state.hints.length === 0;
    this._reasons.textContent = '';
    for (const reason of state.reasons) {
      const item = document.createElement('li');
      item.textContent = reason;
      this._reasons.appendChild(item);
    }
    this._reasons.hidden = state.reasons.length === 0;
    // New reasons or a new hint open the drawer once, where they are listed.
    const key = `${state.verdict ? state.reasons.join('\n') : ''}|${state.hints.length}`;
    if (
      key !== this._lastCheck &&
      (state.reasons.length > 0 || state.hints.length > this._hintsSeen)
    ) {
      this.setDrawerOpen(true);
    }
    this._lastCheck = key;
    this._hintsSeen = state.hints.length;
    this._diagnosis?.render();
    this._fitToContent();
  }

  private _replay: ReplayController;
  private _check: CheckController;
  private _trans: TranslationBundle;
  private _toolbar: Toolbar;
  private _toggle: HTMLButtonElement;
  private _line: Widget;
  private _drawer: Widget;
  private _open = false;
  private _observer: ResizeObserver;
  private _diagnosis: DiagnosisForm | null;
  private _lastRun = '';
  private _lastCheck = '';
  private _hintsSeen = 0;
  private _status!: HTMLSpanElement;
  private _verdict!: HTMLSpanElement;
  private _result!: HTMLSpanElement;
  private _drift!: HTMLDivElement;
  private _why!: HTMLDetailsElement;
  private _whyList!: HTMLUListElement;
  private _legend!: HTMLDivElement;
  private _timeline!: HTMLOListElement;
  private _reasons!: HTMLUListElement;
  private _hints!: HTMLOListElement;
}

/**
 * A namespace for CaseHeader statics.
 */
export namespace CaseHeader {
  /** One toolbar button: a command with its arguments and short label. */
  export interface IButton {
    /** The toolbar item name. */
    name: string;
    /** The command it runs. */
    command: string;
    /** The command's arguments (this working copy). */
    args: Record<string, string>;
    /** The short label shown in the header. */
    label: string;
    /** The tooltip, when not the command's caption. */
    caption?: string;
  }

  /** Options to build the header. */
  export interface IOptions {
    /** The replay controller of the working copy. */
    replay: ReplayController;
    /** The check controller of the working copy. */
    check: CheckController;
    /** The application's commands. */
    commands: CommandRegistry;
    /** The toolbar's buttons, in order. */
    buttons: IButton[];
    /** The self-diagnosis form, when progress is kept. */
    diagnosis?: DiagnosisForm.IOptions;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  let id = 0;

  /** A fresh number for element ids. */
  export function nextId(): number {
    return ++id;
  }
}
