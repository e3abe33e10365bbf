/**
 * The State view of a working copy: the hidden state of its last replays as
 * tables, one row a name and one column a step (a re-executed cell is two
 * steps), the recorded order and top to bottom side by side. Every changed
 * cell of a table says in words what happened, for screen readers; arrow keys
 * move between cells. Renders the replay controller's timelines only.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { describeSummary } from '../state/values';
import type { ITimeline } from '../state/timeline';
import type { ReplayController } from '../model/replayController';
import { cellName } from '../i18n';
import { renderRunStop } from '../kernel/stop';
import { renderExplanation } from '../state/timeline';

/**
 * Renders the state timelines of one working copy.
 */
export class StateView extends Widget {
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
    this.node.addEventListener('keydown', this._onKey);
    this._controller.timelinesChanged.connect(this._render, this);
    this._controller.stateChanged.connect(this._render, this);
    this._render();
  }

  /** Stop listening. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.node.removeEventListener('keydown', this._onKey);
    this._controller.timelinesChanged.disconnect(this._render, this);
    this._controller.stateChanged.disconnect(this._render, this);
    super.dispose();
  }

  private _render(): void {
    const trans = this._trans;
    const { recorded, topToBottom, why: whys } = this._controller.timelines;
    this.node.textContent = '';
    for (const [explanation, heading] of [
      [whys.recorded, trans.__('Why it crashed (recorded order)')],
      [whys.topToBottom, trans.__('Why it crashed (top to bottom)')]
    ] as const) {
      if (!explanation || explanation.kind === 'no-crash') {
        continue;
      }
      const why = document.createElement('section');
      why.className = 'jp-Junobench-stateWhy';
      const title = document.createElement('h3');
      title.textContent = heading;
      const list = document.createElement('ul');
      for (const sentence of renderExplanation(
        explanation,
        trans.__.bind(trans)
      )) {
        const item = document.createElement('li');
        item.textContent = sentence;
        list.appendChild(item);
      }
      why.append(title, list);
      this.node.appendChild(why);
    }
    const row = document.createElement('div');
    row.className = 'jp-Junobench-stateRow';
    row.append(
      this._table(trans.__('Recorded order'), recorded),
      this._table(trans.__('Top to bottom'), topToBottom)
    );
    this.node.appendChild(row);
    // One cell of each table is in the tab order; arrows move from there.
    for (const table of Array.from(this.node.querySelectorAll('table'))) {
      const first = table.querySelector<HTMLElement>('td, tbody th');
      if (first) {
        first.tabIndex = 0;
      }
    }
  }

  private _table(title: string, timeline: ITimeline | null): HTMLElement {
    const trans = this._trans;
    const section = document.createElement('section');
    section.className = 'jp-Junobench-stateRun';
    const heading = document.createElement('h3');
    heading.textContent = title;
    section.appendChild(heading);
    if (!timeline) {
      const empty = document.createElement('p');
      empty.textContent = trans.__(
        'No run yet: press Replay or Run top to bottom in the notebook.'
      );
      section.appendChild(empty);
      return section;
    }
    const table = document.createElement('table');
    table.className = 'jp-Junobench-stateTable';
    table.dataset.order = timeline.order;
    const caption = document.createElement('caption');
    const crash = timeline.steps.find(st => st.error);
    caption.textContent = trans.__(
      '%1: %2 steps, %3 names. %4',
      title,
      timeline.steps.length,
      timeline.names.length,
      crash?.error
        ? trans.__(
            '%1 raised %2: %3',
            crash.cell,
            crash.error.ename,
            crash.error.evalue
          )
        : renderRunStop(timeline.stop, trans.__.bind(trans))
    );
    table.appendChild(caption);
    const head = table.createTHead().insertRow();
    const corner = document.createElement('th');
    corner.className = 'jp-Junobench-stateHead';
    corner.scope = 'col';
    corner.textContent = trans.__('name');
    head.appendChild(corner);
    for (const step of timeline.steps) {
      const th = document.createElement('th');
      th.className = 'jp-Junobench-stateHead';
      th.scope = 'col';
      th.dataset.step = String(step.index + 1);
      th.textContent = `${step.index + 1}`;
      const label = step.error
        ? trans.__(
            'Step %1, %2%3: raised %4: %5',
            step.index + 1,
            cellName(step.cellIndex, step.executionCount, trans.__.bind(trans)),
            step.run === 2 ? trans.__(' (second run)') : '',
            step.error.ename,
            step.error.evalue
          )
        : trans.__(
            'Step %1, %2%3',
            step.index + 1,
            cellName(step.cellIndex, step.executionCount, trans.__.bind(trans)),
            step.run === 2 ? trans.__(' (second run)') : ''
          );
      th.title = label;
      th.setAttribute('aria-label', label);
      const sub = document.createElement('span');
      sub.className = 'jp-Junobench-stateCell';
      sub.textContent = step.error
        ? `✗ ${step.error.ename}`
        : cellName(step.cellIndex, step.executionCount, trans.__.bind(trans));
      th.appendChild(sub);
      if (step.error) {
        th.dataset.error = step.error.ename;
      }
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const name of timeline.names) {
      const tr = body.insertRow();
      tr.dataset.name = name;
      const th = document.createElement('th');
      th.className = 'jp-Junobench-stateHead';
      th.scope = 'row';
      th.textContent = name;
      th.tabIndex = -1;
      tr.appendChild(th);
      for (const step of timeline.steps) {
        const td = tr.insertCell();
        td.className = 'jp-Junobench-stateDatum';
        td.tabIndex = -1;
        const c = step.changes?.[name];
        if (!c) {
          td.setAttribute(
            'aria-label',
            trans.__('%1: unchanged at step %2', name, step.index + 1)
          );
          continue;
        }
        td.dataset.change = c.change;
        td.textContent =
          c.change === 'created'
            ? '+'
            : c.change === 'rebound'
              ? '='
              : c.change === 'mutated'
                ? '~'
                : '−';
        const summary = c.summary
          ? describeSummary(c.summary, trans.__.bind(trans))
          : '';
        const columns = Array.isArray(c.summary?.columns)
          ? trans.__(
              ', columns %1',
              (c.summary!.columns as string[]).join(', ')
            )
          : '';
        const text = trans.__(
          '%1 %2 at step %3 (%4): %5%6',
          name,
          Private.changeWord(c.change, trans),
          step.index + 1,
          cellName(step.cellIndex, step.executionCount, trans.__.bind(trans)),
          summary,
          columns
        );
        td.title = text;
        td.setAttribute('aria-label', text);
      }
    }
    section.appendChild(table);
    return section;
  }

  /** Arrow keys move between the cells of a table. */
  private _onKey = (event: KeyboardEvent): void => {
    const cell = event.target as HTMLElement;
    if (!(cell instanceof HTMLTableCellElement)) {
      return;
    }
    const tr = cell.parentElement as HTMLTableRowElement;
    const table = cell.closest('table');
    if (!table || tr.parentElement?.tagName !== 'TBODY') {
      return;
    }
    const rows = Array.from(table.tBodies[0].rows);
    let r = rows.indexOf(tr);
    let c = cell.cellIndex;
    switch (event.key) {
      case 'ArrowRight':
        c = Math.min(c + 1, tr.cells.length - 1);
        break;
      case 'ArrowLeft':
        c = Math.max(c - 1, 0);
        break;
      case 'ArrowDown':
        r = Math.min(r + 1, rows.length - 1);
        break;
      case 'ArrowUp':
        r = Math.max(r - 1, 0);
        break;
      case 'Home':
        c = 0;
        break;
      case 'End':
        c = tr.cells.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    const next = rows[r]?.cells[c] as HTMLElement | undefined;
    if (next) {
      cell.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  };

  private _controller: ReplayController;
  private _trans: TranslationBundle;
}

/**
 * A namespace for StateView statics.
 */
export namespace StateView {
  /** Options of the view. */
  export interface IOptions {
    /** The working copy's replay model. */
    controller: ReplayController;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}

namespace Private {
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
