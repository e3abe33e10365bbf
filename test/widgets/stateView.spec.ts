/**
 * The State view over a replay model: the tables of its timelines (a row per
 * name, a column per step, a mark per change), arrow keys between cells, and
 * the focused cell keeping the focus while a replay adds steps.
 */
import { nullTranslator } from '@jupyterlab/translation';
import { MessageLoop } from '@lumino/messaging';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import type { IReplayTimelines } from '../../src/model/replayModel';
import type { IReplay, IReplayView } from '../../src/tokens';
import type {
  IExplanation,
  IStateChange,
  ITimeline,
  ITimelineStep
} from '../../src/state/timeline';
import { StateView } from '../../src/widgets/stateView';

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

const trans = nullTranslator.load('jupyterlab_junobench');

/** A step of cell `cellIndex` with prompt `[index + 1]`. */
function step(
  index: number,
  changes: Record<string, IStateChange>,
  error: ITimelineStep['error'] = null
): ITimelineStep {
  return {
    index,
    cellIndex: index,
    executionCount: index + 1,
    run: 1,
    error,
    changes
  };
}

const DF = { type: 'pandas.DataFrame', shape: [3, 2], columns: ['a', 'b'] };

/** The first steps of a run, then the ones a replay adds. */
const STEPS: ITimelineStep[] = [
  step(0, { df: { change: 'created', summary: DF } }),
  step(1, {
    x: { change: 'created', summary: { type: 'int' } },
    df: { change: 'mutated', summary: DF }
  }),
  step(2, { x: { change: 'rebound', summary: { type: 'float' } } }),
  step(3, { df: { change: 'deleted', summary: null } }),
  step(
    4,
    { y: { change: 'created', summary: { type: 'int' } } },
    { ename: 'NameError', evalue: "name 'df' is not defined", line: 1 }
  )
];

/** A recorded-order timeline of the first `count` steps. */
function timeline(count: number): ITimeline {
  const steps = STEPS.slice(0, count);
  const names: string[] = [];
  for (const s of steps) {
    for (const name of Object.keys(s.changes ?? {})) {
      if (!names.includes(name)) {
        names.push(name);
      }
    }
  }
  return {
    order: 'recorded',
    steps,
    names,
    stop: { code: 'completed', count }
  };
}

const WHY: IExplanation = {
  kind: 'name-error',
  lines: [{ code: 'defined-nowhere', name: 'df' }],
  names: ['df']
};

/** The members of a replay the view reads, driven by the test. */
class FakeReplay implements StateView.IModel {
  timelines: IReplayTimelines = {
    recorded: timeline(3),
    topToBottom: null,
    why: { recorded: null, topToBottom: null }
  };
  readonly timelinesChanged = new Signal<this, IReplayTimelines>(this);
  readonly stateChanged = new Signal<IReplay, IReplayView>(
    this as unknown as IReplay
  );
}

/** A running replay's state; the view reads the timelines, not the state. */
const RUNNING = {
  kind: 'recorded',
  phase: 'running',
  current: 3
} as IReplayView;

/** Deliver pending widget updates and let React commit them. */
function flush(change?: () => void): void {
  act(() => {
    change?.();
    MessageLoop.flush();
  });
}

/** Press a key on the focused element. */
function press(key: string): void {
  flush(() => {
    document.activeElement!.dispatchEvent(
      new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })
    );
  });
}

describe('StateView', () => {
  let model: FakeReplay;
  let view: StateView;

  beforeEach(() => {
    model = new FakeReplay();
    view = new StateView({
      controller: model,
      trans
    });
    flush(() => Widget.attach(view, document.body));
  });

  afterEach(() => {
    flush(() => view.dispose());
  });

  const recorded = () =>
    view.node.querySelector<HTMLTableElement>('table[data-order="recorded"]')!;
  const cell = (name: string, column: number) =>
    recorded().querySelector<HTMLTableRowElement>(
      `tbody tr[data-name="${name}"]`
    )!.cells[column];

  it('renders a row per name, a column per step and a mark per change', () => {
    expect(view.node.classList).toContain('jp-Junobench-stateView');
    expect(view.node.getAttribute('role')).toBe('region');
    expect(view.node.getAttribute('aria-label')).toBe(
      'Hidden state of the last replays'
    );
    const table = recorded();
    expect(table.className).toBe('jp-Junobench-stateTable');
    expect(table.caption?.textContent).toBe(
      'Recorded order: 3 steps, 2 names. All 3 cells ran without error.'
    );
    expect(
      [...table.querySelectorAll('thead th[data-step]')].map(th =>
        th.getAttribute('data-step')
      )
    ).toEqual(['1', '2', '3']);
    expect(
      table.querySelector('th[data-step="2"]')?.getAttribute('aria-label')
    ).toBe('Step 2, cell 2 [2]');
    expect(
      [...table.querySelectorAll('tbody tr')].map(tr =>
        tr.getAttribute('data-name')
      )
    ).toEqual(['df', 'x']);
    expect(
      [...table.querySelectorAll('tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent)
      )
    ).toEqual([
      ['+', '~', ''],
      ['', '+', '=']
    ]);
    expect(cell('df', 1).getAttribute('data-change')).toBe('created');
    expect(cell('df', 1).getAttribute('aria-label')).toBe(
      'df created at step 1 (cell 1 [1]): pandas.DataFrame (3, 2), columns a, b'
    );
    expect(cell('df', 3).hasAttribute('data-change')).toBe(false);
    expect(cell('df', 3).getAttribute('aria-label')).toBe(
      'df: unchanged at step 3'
    );
    expect(cell('x', 3).getAttribute('data-change')).toBe('rebound');
    // Top to bottom has not run; no explanation without a crash.
    expect(view.node.querySelector('table[data-order="top-to-bottom"]')).toBe(
      null
    );
    expect(view.node.textContent).toContain(
      'No run yet: press Replay or Run top to bottom in the notebook.'
    );
    expect(view.node.querySelector('.jp-Junobench-stateWhy')).toBe(null);
    // One cell of the table is in the tab order: the first row's name.
    expect(
      [...table.querySelectorAll('[tabindex="0"]')].map(c => c.textContent)
    ).toEqual(['df']);
  });

  it('shows the crashing step, every change and why it crashed', () => {
    flush(() => {
      model.timelines = {
        recorded: timeline(5),
        topToBottom: { ...timeline(2), order: 'top-to-bottom' },
        why: { recorded: WHY, topToBottom: null }
      };
      model.timelinesChanged.emit(model.timelines);
    });
    const table = recorded();
    const error = table.querySelector('thead th[data-error]');
    expect(error?.getAttribute('data-error')).toBe('NameError');
    expect(error?.getAttribute('data-step')).toBe('5');
    expect(table.caption?.textContent).toBe(
      "Recorded order: 5 steps, 3 names. cell 5 [5] raised NameError: name 'df' is not defined"
    );
    expect(
      [...table.querySelectorAll('td[data-change]')].map(td => [
        td.getAttribute('data-change'),
        td.textContent
      ])
    ).toEqual([
      ['created', '+'],
      ['mutated', '~'],
      ['deleted', '−'],
      ['created', '+'],
      ['rebound', '='],
      ['created', '+']
    ]);
    expect(
      view.node.querySelector('table[data-order="top-to-bottom"] caption')
        ?.textContent
    ).toBe('Top to bottom: 2 steps, 2 names. All 2 cells ran without error.');
    const why = view.node.querySelectorAll('.jp-Junobench-stateWhy');
    expect(why).toHaveLength(1);
    expect(why[0].querySelector('h3')?.textContent).toBe(
      'Why it crashed (recorded order)'
    );
    expect(why[0].querySelectorAll('li')).toHaveLength(1);
  });

  it('moves the focus with the arrow keys, Home and End, one tab stop at a time', () => {
    const table = recorded();
    flush(() => cell('df', 0).focus());
    press('ArrowRight');
    expect(document.activeElement).toBe(cell('df', 1));
    press('ArrowDown');
    expect(document.activeElement).toBe(cell('x', 1));
    press('ArrowDown');
    expect(document.activeElement).toBe(cell('x', 1));
    press('End');
    expect(document.activeElement).toBe(cell('x', 3));
    press('ArrowRight');
    expect(document.activeElement).toBe(cell('x', 3));
    press('ArrowUp');
    expect(document.activeElement).toBe(cell('df', 3));
    press('ArrowLeft');
    expect(document.activeElement).toBe(cell('df', 2));
    press('Home');
    expect(document.activeElement).toBe(cell('df', 0));
    press('ArrowLeft');
    expect(document.activeElement).toBe(cell('df', 0));
    press('ArrowRight');
    press('ArrowRight');
    // The tab stop went with the focus: one cell of the table is tabbable.
    expect(table.querySelectorAll('[tabindex="0"]')).toHaveLength(1);
    expect(cell('df', 2).tabIndex).toBe(0);
  });

  it.each(['timelinesChanged', 'stateChanged'] as const)(
    'keeps the focused cell focused when %s brings a new step',
    signal => {
      flush(() => cell('x', 0).focus());
      press('ArrowRight');
      press('ArrowRight');
      const focused = document.activeElement;
      expect(focused).toBe(cell('x', 2));

      flush(() => {
        model.timelines = { ...model.timelines, recorded: timeline(4) };
        if (signal === 'timelinesChanged') {
          model.timelinesChanged.emit(model.timelines);
        } else {
          model.stateChanged.emit(RUNNING);
        }
      });
      // The step is there, and the very same cell still has the focus.
      expect(recorded().querySelector('th[data-step="4"]')).not.toBe(null);
      expect(cell('df', 4).getAttribute('data-change')).toBe('deleted');
      expect(document.activeElement).toBe(focused);
      expect(
        (focused as HTMLElement).closest('tr')?.getAttribute('data-name')
      ).toBe('x');
      expect((focused as HTMLTableCellElement).cellIndex).toBe(2);
      expect((focused as HTMLElement).tabIndex).toBe(0);
      // The arrows go on from there, into the new step.
      press('ArrowRight');
      press('ArrowRight');
      expect(document.activeElement).toBe(cell('x', 4));
    }
  );

  it('stops listening to the model once disposed', () => {
    const update = jest.spyOn(StateView.prototype, 'update');
    try {
      const other = new StateView({
        controller: model,
        trans
      });
      update.mockClear();
      flush(() => model.stateChanged.emit(RUNNING));
      expect(update).toHaveBeenCalledTimes(1);
      flush(() => other.dispose());
      flush(() => {
        model.stateChanged.emit(RUNNING);
        model.timelinesChanged.emit(model.timelines);
      });
      expect(update).toHaveBeenCalledTimes(1);
    } finally {
      update.mockRestore();
    }
  });
});
