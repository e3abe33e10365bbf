/**
 * The State view of a working copy: the hidden state of its last replays as
 * tables, one row a name and one column a step (a re-executed cell is two
 * steps), the recorded order and top to bottom side by side. Every changed
 * cell of a table says in words what happened, for screen readers; arrow keys
 * move between cells. Renders the replay controller's timelines only, as a
 * React tree keyed by name and step, so that a replay step updates the tables
 * in place and the focused cell keeps the focus.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { ReactWidget } from '@jupyterlab/ui-components';
import * as React from 'react';

import { describeSummary } from '../state/values';
import type { ChangeKind } from '../state/values';
import type { IExplanation, ITimeline, ITimelineStep } from '../state/timeline';
import type { IReplayTimelines } from '../model/replayModel';
import type { IReplay } from '../tokens';
import { cellName } from '../i18n';
import { renderRunStop } from '../kernel/stop';
import { renderExplanation } from '../state/timeline';

/**
 * Renders the state timelines of one working copy.
 */
export class StateView extends ReactWidget {
  /**
   * Build the view over a replay controller.
   */
  constructor(options: StateView.IOptions) {
    super();
    this._controller = options.controller;
    this._trans = options.trans;
    this.addClass('jp-Junobench-stateView');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute(
      'aria-label',
      this._trans.__('Hidden state of the last replays')
    );
    this._controller.timelinesChanged.connect(this.update, this);
    this._controller.stateChanged.connect(this.update, this);
    this.update();
  }

  /** Stop listening. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._controller.timelinesChanged.disconnect(this.update, this);
    this._controller.stateChanged.disconnect(this.update, this);
    super.dispose();
  }

  /** The explanations and the two tables of the controller's timelines. */
  protected render(): React.ReactElement {
    return (
      <Private.StateBody
        timelines={this._controller.timelines}
        trans={this._trans}
      />
    );
  }

  private _controller: StateView.IModel;
  private _trans: TranslationBundle;
}

/**
 * A namespace for StateView statics.
 */
export namespace StateView {
  /** The members of the replay controller the view reads. */
  export type IModel = Pick<
    IReplay,
    'timelines' | 'timelinesChanged' | 'stateChanged'
  >;

  /** Options of the view. */
  export interface IOptions {
    /** The working copy's replay model. */
    controller: IModel;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}

namespace Private {
  /** Properties of the view's body. */
  export interface IBodyProps {
    /** The timelines to show. */
    timelines: IReplayTimelines;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /**
   * Why each run crashed, then the two tables side by side.
   */
  export function StateBody(props: IBodyProps): React.ReactElement {
    const { trans, timelines } = props;
    const { recorded, topToBottom, why: whys } = timelines;
    const explained: Array<[string, IExplanation | null, string]> = [
      ['recorded', whys.recorded, trans.__('Why it crashed (recorded order)')],
      [
        'top-to-bottom',
        whys.topToBottom,
        trans.__('Why it crashed (top to bottom)')
      ]
    ];
    return (
      <>
        {explained.map(([key, explanation, heading]) =>
          !explanation || explanation.kind === 'no-crash' ? null : (
            <section key={key} className="jp-Junobench-stateWhy">
              <h3>{heading}</h3>
              <ul>
                {renderExplanation(explanation, trans.__.bind(trans)).map(
                  (sentence, i) => (
                    <li key={i}>{sentence}</li>
                  )
                )}
              </ul>
            </section>
          )
        )}
        <div className="jp-Junobench-stateRow">
          <StateRun
            title={trans.__('Recorded order')}
            timeline={recorded}
            trans={trans}
          />
          <StateRun
            title={trans.__('Top to bottom')}
            timeline={topToBottom}
            trans={trans}
          />
        </div>
      </>
    );
  }

  /** Properties of one run's section. */
  export interface IRunProps {
    /** The run's heading. */
    title: string;
    /** Its timeline, or null before it ran. */
    timeline: ITimeline | null;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /**
   * Where the table's one tab stop is: a row by name (null: the first row) and
   * a column (0: the row's name, n: step n).
   */
  interface ITabStop {
    name: string | null;
    column: number;
  }

  /**
   * One run: its heading and its table, or a line saying it has not run.
   */
  export function StateRun(props: IRunProps): React.ReactElement {
    const { title, timeline, trans } = props;
    // The roving tab stop lives here, not in the DOM, so a re-render keeps it.
    const [stop, setStop] = React.useState<ITabStop>({
      name: null,
      column: 0
    });
    if (!timeline) {
      return (
        <section className="jp-Junobench-stateRun">
          <h3>{title}</h3>
          <p>
            {trans.__(
              'No run yet: press Replay or Run top to bottom in the notebook.'
            )}
          </p>
        </section>
      );
    }
    const { names, steps } = timeline;
    // A name or step gone since (a new run) puts the stop back in the table.
    const stopName =
      stop.name !== null && names.includes(stop.name) ? stop.name : names[0];
    const stopColumn = Math.min(stop.column, steps.length);
    const crash = steps.find(st => st.error);
    const caption = trans.__(
      '%1: %2 steps, %3 names. %4',
      title,
      steps.length,
      names.length,
      crash?.error
        ? trans.__(
            '%1 raised %2: %3',
            cellName(
              crash.cellIndex,
              crash.executionCount,
              trans.__.bind(trans)
            ),
            crash.error.ename,
            crash.error.evalue
          )
        : renderRunStop(timeline.stop, trans.__.bind(trans))
    );

    /** The body cell of an event, with its row name and column. */
    const cellOf = (
      target: EventTarget
    ): { cell: HTMLTableCellElement; name: string; column: number } | null => {
      if (!(target instanceof HTMLTableCellElement)) {
        return null;
      }
      const tr = target.parentElement as HTMLTableRowElement | null;
      const name = tr?.dataset.name;
      if (name === undefined || tr?.parentElement?.tagName !== 'TBODY') {
        return null;
      }
      return { cell: target, name, column: target.cellIndex };
    };

    /** The focused cell becomes the tab stop, whether by key or by pointer. */
    const onFocus = (event: React.FocusEvent<HTMLTableElement>): void => {
      const at = cellOf(event.target);
      if (at && (at.name !== stop.name || at.column !== stop.column)) {
        setStop({ name: at.name, column: at.column });
      }
    };

    /** Arrow keys, Home and End move between the cells of the table. */
    const onKeyDown = (event: React.KeyboardEvent<HTMLTableElement>): void => {
      const at = cellOf(event.target);
      if (!at) {
        return;
      }
      const last = steps.length;
      let row = names.indexOf(at.name);
      let column = at.column;
      switch (event.key) {
        case 'ArrowRight':
          column = Math.min(column + 1, last);
          break;
        case 'ArrowLeft':
          column = Math.max(column - 1, 0);
          break;
        case 'ArrowDown':
          row = Math.min(row + 1, names.length - 1);
          break;
        case 'ArrowUp':
          row = Math.max(row - 1, 0);
          break;
        case 'Home':
          column = 0;
          break;
        case 'End':
          column = last;
          break;
        default:
          return;
      }
      event.preventDefault();
      const next = event.currentTarget.tBodies[0]?.rows[row]?.cells[column];
      if (next) {
        setStop({ name: names[row], column });
        next.focus();
      }
    };

    return (
      <section className="jp-Junobench-stateRun">
        <h3>{title}</h3>
        <table
          className="jp-Junobench-stateTable"
          data-order={timeline.order}
          onFocus={onFocus}
          onKeyDown={onKeyDown}
        >
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th className="jp-Junobench-stateHead" scope="col">
                {trans.__('name')}
              </th>
              {steps.map(step => (
                <StepHead key={step.index} step={step} trans={trans} />
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map(name => (
              <tr key={name} data-name={name}>
                <th
                  className="jp-Junobench-stateHead"
                  scope="row"
                  tabIndex={name === stopName && stopColumn === 0 ? 0 : -1}
                >
                  {name}
                </th>
                {steps.map(step => (
                  <Datum
                    key={step.index}
                    name={name}
                    step={step}
                    tabIndex={
                      name === stopName && stopColumn === step.index + 1
                        ? 0
                        : -1
                    }
                    trans={trans}
                  />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    );
  }

  /**
   * The head of a step's column: its number, its cell, and its error.
   */
  function StepHead(props: {
    step: ITimelineStep;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { step, trans } = props;
    const cell = cellName(
      step.cellIndex,
      step.executionCount,
      trans.__.bind(trans)
    );
    const label = step.error
      ? trans.__(
          'Step %1, %2%3: raised %4: %5',
          step.index + 1,
          cell,
          step.run === 2 ? trans.__(' (second run)') : '',
          step.error.ename,
          step.error.evalue
        )
      : trans.__(
          'Step %1, %2%3',
          step.index + 1,
          cell,
          step.run === 2 ? trans.__(' (second run)') : ''
        );
    return (
      <th
        className="jp-Junobench-stateHead"
        scope="col"
        data-step={String(step.index + 1)}
        data-error={step.error ? step.error.ename : undefined}
        title={label}
        aria-label={label}
      >
        {`${step.index + 1}`}
        <span className="jp-Junobench-stateCell">
          {step.error ? `✗ ${step.error.ename}` : cell}
        </span>
      </th>
    );
  }

  /**
   * What one step did to one name: a mark, and the same in words.
   */
  function Datum(props: {
    name: string;
    step: ITimelineStep;
    tabIndex: number;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { name, step, tabIndex, trans } = props;
    const c = step.changes?.[name];
    if (!c) {
      return (
        <td
          className="jp-Junobench-stateDatum"
          tabIndex={tabIndex}
          aria-label={trans.__(
            '%1: unchanged at step %2',
            name,
            step.index + 1
          )}
        />
      );
    }
    const summary = c.summary
      ? describeSummary(c.summary, trans.__.bind(trans))
      : '';
    const columns = Array.isArray(c.summary?.columns)
      ? trans.__(', columns %1', (c.summary!.columns as string[]).join(', '))
      : '';
    const text = trans.__(
      '%1 %2 at step %3 (%4): %5%6',
      name,
      changeWord(c.change, trans),
      step.index + 1,
      cellName(step.cellIndex, step.executionCount, trans.__.bind(trans)),
      summary,
      columns
    );
    return (
      <td
        className="jp-Junobench-stateDatum"
        tabIndex={tabIndex}
        data-change={c.change}
        title={text}
        aria-label={text}
      >
        {MARKS[c.change]}
      </td>
    );
  }

  /** The mark of each kind of change. */
  const MARKS: Record<ChangeKind, string> = {
    created: '+',
    rebound: '=',
    mutated: '~',
    deleted: '−'
  };

  /**
   * A change in words.
   */
  export function changeWord(change: string, trans: TranslationBundle): string {
    switch (change) {
      case 'created':
        return trans.__('created');
      case 'rebound':
        return trans.__('reassigned');
      case 'mutated':
        return trans.__('changed in place');
      default:
        return trans.__('deleted');
    }
  }
}
