/**
 * The case header above a working copy: one toolbar of JupyterLab commands
 * (Replay, Run top to bottom, Interrupt, Check my fix,
 * Hint, Reveal or Give up) and one status line: the last replay's state or the
 * last check's verdict, whichever changed last, with the crash location as a
 * link to the crashing cell. It never grows past these two lines; the case's
 * story (reasons, why it crashed with the exception, order, hints,
 * self-diagnosis, environment, the State view) is in the case side panel.
 *
 * Every button is a command (`CommandToolbarButton`), so the palette,
 * shortcuts and the header do the same thing; the status line is a
 * declarative render of the replay and check models.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import {
  CommandToolbarButton,
  ReactWidget,
  Toolbar
} from '@jupyterlab/ui-components';
import type { CommandRegistry } from '@lumino/commands';
import { Panel } from '@lumino/widgets';
import * as React from 'react';

import type { ICheck, IReplay } from '../tokens';

/**
 * Renders a working copy's replay and check models in two lines.
 */
export class CaseHeader extends Panel {
  /**
   * Build the header for one working copy.
   */
  constructor(options: CaseHeader.IOptions) {
    super();
    const { trans } = options;
    this.addClass('jp-Junobench-caseHeader');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', trans.__('JunoBench case'));

    // One row: where the buttons do not fit, the row scrolls sideways.
    const toolbar = new Toolbar();
    toolbar.addClass('jp-Junobench-headerToolbar');
    toolbar.node.setAttribute('aria-label', trans.__('JunoBench case actions'));
    for (const item of options.buttons) {
      if (item.name === 'spacer') {
        toolbar.addItem('spacer', Toolbar.createSpacerItem());
        continue;
      }
      toolbar.addItem(
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
    this.addWidget(toolbar);
    this.addWidget(new Private.StatusLine(options));
  }
}

/**
 * A namespace for CaseHeader statics.
 */
export namespace CaseHeader {
  /** One toolbar button: a command with its arguments and short label (`spacer`: a gap). */
  export interface IButton {
    /** The toolbar item name (`spacer` for the gap before the right-hand buttons). */
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
    /** The replay model of the working copy. */
    replay: IReplay;
    /** The check model of the working copy. */
    check: ICheck;
    /** The application's commands. */
    commands: CommandRegistry;
    /** The toolbar's buttons, in order. */
    buttons: IButton[];
    /** Bring the crashing cell into view. */
    showCrash: () => void;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** The replay verdict in words ('' for none). */
  export function verdictText(
    verdict: IReplay['state']['verdict'],
    trans: TranslationBundle
  ): string {
    switch (verdict) {
      case 'as-recorded':
        return trans.__('Reproduced as recorded.');
      case 'same-exception-different-message':
        return trans.__(
          'Reproduced as recorded (same exception, different message).'
        );
      case 'different-crash':
        return trans.__(
          'A different crash: the environment may differ from the benchmark.'
        );
      case 'no-crash':
        return trans.__(
          'No crash: the environment may differ from the benchmark.'
        );
      case null:
        return '';
    }
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The replay's message without the exception's message ("Crashed in cell 5
   * [7], line 3: NameError"): the case side panel says the exception once,
   * under "Why it crashed"; the tooltip keeps the whole message.
   */
  export function withoutException(state: IReplay['state']): string {
    const error =
      state.result?.status === 'crashed' ? state.result.error : null;
    const tail = error ? `${error.ename}: ${error.evalue}` : '';
    return error && state.message.endsWith(tail)
      ? state.message.slice(0, state.message.length - error.evalue.length - 2)
      : state.message;
  }

  /**
   * The status line: the replay's state or the check's verdict, whichever
   * changed last; both stay in the DOM (the other hidden) for tests and
   * assistive technology that read them.
   */
  export class StatusLine extends ReactWidget {
    constructor(options: CaseHeader.IOptions) {
      super();
      this._options = options;
      this.addClass('jp-Junobench-headerStatus');
      options.replay.stateChanged.connect(this._onReplay, this);
      options.check.stateChanged.connect(this._onCheck, this);
      this._replayMessage = options.replay.state.message;
      this._checkMessage = options.check.state.message;
    }

    dispose(): void {
      if (this.isDisposed) {
        return;
      }
      this._options.replay.stateChanged.disconnect(this._onReplay, this);
      this._options.check.stateChanged.disconnect(this._onCheck, this);
      super.dispose();
    }

    protected render(): JSX.Element {
      const { replay, check, trans, showCrash } = this._options;
      const r = replay.state;
      const c = check.state;
      const showCheck = this._last === 'check' && !!c.message;
      const verdict = CaseHeader.verdictText(r.verdict, trans);
      const crashLine =
        r.crashLine !== null && r.crashLineText !== null
          ? trans.__('line %1: %2', r.crashLine, r.crashLineText.trim())
          : null;
      const replayTitle = [r.message, verdict, crashLine ?? '']
        .filter(Boolean)
        .join(' ');
      const message = Private.withoutException(r);
      return (
        <>
          <span
            className="jp-Junobench-replayStatus"
            role="status"
            aria-live="polite"
            data-result={r.result?.status ?? ''}
            data-kernel-fate={r.result?.kernelFate ?? ''}
            title={replayTitle}
            hidden={showCheck || !r.message}
          >
            {message}
          </span>
          <span
            className="jp-Junobench-verdict"
            data-verdict={r.verdict ?? ''}
            hidden={showCheck || (!verdict && crashLine === null)}
          >
            {verdict}
            {crashLine !== null && (
              <>
                {' '}
                <button
                  type="button"
                  className="jp-Junobench-linkButton jp-Junobench-crashLink"
                  title={trans.__('Go to the crashing cell')}
                  onClick={showCrash}
                >
                  <code className="jp-Junobench-crashLineText">
                    {crashLine}
                  </code>
                </button>
              </>
            )}
          </span>
          <span
            className="jp-Junobench-checkResult"
            role="status"
            aria-live="polite"
            data-passed={c.verdict ? String(c.verdict.passed) : ''}
            data-grade={c.verdict?.grade ?? ''}
            title={c.message}
            hidden={!showCheck}
          >
            {c.message}
          </span>
        </>
      );
    }

    private _onReplay(): void {
      const message = this._options.replay.state.message;
      if (message !== this._replayMessage) {
        this._replayMessage = message;
        this._last = 'replay';
      }
      this.update();
    }

    private _onCheck(): void {
      const message = this._options.check.state.message;
      if (message !== this._checkMessage) {
        this._checkMessage = message;
        this._last = 'check';
      }
      this.update();
    }

    private _options: CaseHeader.IOptions;
    private _last: 'replay' | 'check' = 'replay';
    private _replayMessage: string;
    private _checkMessage: string;
  }
}
