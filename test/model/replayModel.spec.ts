/**
 * The replay model without a notebook, a kernel or a translator: its state
 * transitions and its codes, from the runner results a replay can end with.
 */
import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { ReplayModel } from '../../src/model/replayModel';
import type { IReplayState } from '../../src/model/replayModel';
import type {
  IStoredStep,
  IWorkingCopyMeta
} from '../../src/model/workingCopy';

/** A stored step of cell `cell` (1-based), the target when `target`. */
function stored(cell: number, target = false): IStoredStep {
  return { cellId: `c${cell}`, cell, count: cell, run: 1, target };
}

const META: IWorkingCopyMeta = {
  version: 1,
  case: 'demo_1',
  casebook: 'demo',
  caseFolder: 'demo/benchmark/demo_1',
  attempt: 1,
  created: '2026-12-05T00:00:00Z',
  recorded: { ename: 'NameError', evalue: "name 'df' is not defined", line: 2 },
  targetCellId: 'c3',
  recordedPlan: [stored(1), stored(2), stored(3, true)],
  topToBottomPlan: [stored(1), stored(2), stored(3, true), stored(4)]
};

/** The result of step `index` in cell `cellIndex` (0-based), raising `error` when given. */
function step(
  index: number,
  cellIndex: number,
  error: { ename: string; evalue: string; line: number | null } | null = null
): IStepResult {
  return {
    index,
    step: {
      cellIndex,
      codeCellIndex: cellIndex,
      executionCount: index + 1,
      source: '',
      run: 1,
      isTarget: false
    },
    outputs: [],
    executionCount: index + 1,
    durationMs: 1,
    error: error ? { ...error, traceback: [] } : null
  };
}

/** A run that crashed in its third step (cell 3) with `error`. */
function crashed(error: {
  ename: string;
  evalue: string;
  line: number | null;
}): IRunResult {
  return {
    status: 'crashed',
    steps: [step(0, 0), step(1, 1), step(2, 2, error)],
    failedIndex: 2,
    error: { ...error, traceback: [] },
    stop: {
      code: 'crashed',
      cell: { cellIndex: 2, executionCount: 3 },
      ename: error.ename,
      evalue: error.evalue
    },
    durationMs: 3
  };
}

const COMPLETED: IRunResult = {
  status: 'completed',
  steps: [step(0, 0), step(1, 1), step(2, 2)],
  failedIndex: null,
  error: null,
  stop: { code: 'completed', count: 3 },
  durationMs: 3
};

const TIMEOUT: IRunResult = {
  status: 'timeout',
  steps: [step(0, 0), step(1, 1)],
  failedIndex: 1,
  error: null,
  stop: {
    code: 'timeout',
    cell: { cellIndex: 1, executionCount: 2 },
    seconds: 2.5
  },
  durationMs: 2500
};

/** A model that has run `kind` up to its third step. */
function running(kind: 'recorded' | 'top-to-bottom' = 'recorded'): {
  model: ReplayModel;
  states: IReplayState[];
} {
  const model = new ReplayModel(META);
  const states: IReplayState[] = [];
  model.stateChanged.connect((_, s) => {
    states.push(s);
  });
  model.start(
    kind,
    kind === 'recorded' ? META.recordedPlan : META.topToBottomPlan
  );
  model.running(3, []);
  for (const i of [0, 1]) {
    model.stepStarted(i, { cellIndex: i, executionCount: null }, true);
    model.stepEnded(i, true);
  }
  model.stepStarted(2, { cellIndex: 2, executionCount: null }, true);
  return { model, states };
}

const NAME_ERROR = {
  ename: 'NameError',
  evalue: "name 'df' is not defined",
  line: 2
};

describe('ReplayModel', () => {
  it('starts ready to replay the recorded plan, or says nothing without a working copy', () => {
    expect(new ReplayModel(META).state).toMatchObject({
      kind: 'recorded',
      phase: 'idle',
      stepStates: ['pending', 'pending', 'pending'],
      status: { code: 'replay.ready', params: { count: 3 } }
    });
    expect(new ReplayModel(null).state).toMatchObject({
      kind: null,
      steps: [],
      status: { code: 'replay.none' }
    });
  });

  it('walks a run through its phases and step states, one change at a time', () => {
    const { model, states } = running();
    expect(states.map(s => s.phase)).toEqual([
      'starting',
      'running',
      'running',
      'running',
      'running',
      'running',
      'running'
    ]);
    expect(states[0].status.code).toBe('replay.starting');
    expect(states[1].status).toEqual({
      code: 'replay.running',
      params: { count: 3 }
    });
    // The step that runs is marked, in its cell, and named by its place in the plan.
    expect(states[2]).toMatchObject({
      stepStates: ['running', 'pending', 'pending'],
      current: 0,
      runningCell: 1,
      status: {
        code: 'replay.step',
        params: { step: 1, of: 3, cell: { cellIndex: 0, executionCount: null } }
      }
    });
    expect(states[3]).toMatchObject({
      stepStates: ['done', 'pending', 'pending'],
      runningCell: null
    });
    expect(model.state.stepStates).toEqual(['done', 'done', 'running']);
    // Each change is a new state: the ones emitted before are not rewritten.
    expect(states[2].stepStates).toEqual(['running', 'pending', 'pending']);
  });

  it('marks the steps whose cell was deleted as skipped, and a cell not in the notebook as not running', () => {
    const model = new ReplayModel(META);
    model.start('top-to-bottom', META.topToBottomPlan);
    model.running(3, [1]);
    expect(model.state.stepStates).toEqual([
      'pending',
      'skipped',
      'pending',
      'pending'
    ]);
    model.stepStarted(0, { cellIndex: 0, executionCount: 4 }, false);
    expect(model.state.runningCell).toBeNull();
    expect(model.state.status).toMatchObject({
      params: { step: 1, of: 4, cell: { executionCount: 4 } }
    });
  });

  it.each([
    [
      'the recorded crash at the target',
      'recorded' as const,
      crashed(NAME_ERROR),
      'x = 1\ny = df.head()\n',
      true,
      { verdict: 'as-recorded', crashCell: 3, crashLine: 2 }
    ],
    [
      'the same exception with another message',
      'recorded' as const,
      crashed({ ...NAME_ERROR, evalue: "name 'dg' is not defined" }),
      'x = 1\ny = dg.head()',
      true,
      { verdict: 'same-exception-different-message', crashLine: 2 }
    ],
    [
      'another exception at the target',
      'recorded' as const,
      crashed({ ename: 'KeyError', evalue: "'a'", line: 1 }),
      'x = {}["a"]',
      true,
      { verdict: 'different-crash', crashLine: 1 }
    ],
    [
      'the recorded exception in another cell',
      'recorded' as const,
      crashed(NAME_ERROR),
      'x = 1\ny = df.head()',
      false,
      { verdict: 'different-crash' }
    ],
    [
      'a traceback line the cell does not have',
      'recorded' as const,
      crashed({ ...NAME_ERROR, line: 9 }),
      'y = df.head()',
      true,
      { verdict: 'as-recorded', crashCell: 3, crashLine: null }
    ],
    [
      'a crash top to bottom',
      'top-to-bottom' as const,
      crashed(NAME_ERROR),
      'x = 1\ny = df.head()',
      true,
      { verdict: null, crashCell: 3, crashLine: 2 }
    ]
  ])('judges %s', (_, kind, result, source, atTarget, expected) => {
    const { model } = running(kind);
    model.finish({
      result,
      source,
      atTarget,
      recorded: META.recorded,
      notebook: null,
      timeoutMs: 60000
    });
    const s = model.state;
    expect(s).toMatchObject({
      phase: 'finished',
      kind,
      result,
      current: null,
      runningCell: null,
      ...expected
    });
    const error = result.steps[2].error!;
    expect(s.status).toEqual({
      code: 'replay.crashed',
      params: {
        cell: { cellIndex: 2, executionCount: 3 },
        line: s.crashLine,
        ename: error.ename,
        evalue: error.evalue
      }
    });
    expect(s.crashLineText).toBe(
      s.crashLine === null ? null : source.split('\n')[s.crashLine - 1]
    );
    expect(s.stepStates).toEqual(
      kind === 'recorded'
        ? ['done', 'done', 'error']
        : ['done', 'done', 'error', 'pending']
    );
  });

  it('says a run without the crash is no crash in the recorded order, and nothing top to bottom', () => {
    for (const kind of ['recorded', 'top-to-bottom'] as const) {
      const { model } = running(kind);
      model.stepEnded(2, true);
      model.finish({
        result: COMPLETED,
        source: null,
        atTarget: false,
        recorded: META.recorded,
        notebook: null,
        timeoutMs: 60000
      });
      expect(model.state).toMatchObject({
        verdict: kind === 'recorded' ? 'no-crash' : null,
        crashCell: null,
        status: { code: 'replay.completed', params: { count: 3 } }
      });
    }
  });

  it('says where a run stopped and the timeout in seconds; the step it was running did not finish', () => {
    const model = new ReplayModel(META);
    model.start('recorded', META.recordedPlan);
    model.running(3, []);
    model.stepStarted(0, { cellIndex: 0, executionCount: null }, true);
    model.stepEnded(0, true);
    model.stepStarted(1, { cellIndex: 1, executionCount: null }, true);
    model.finish({
      result: TIMEOUT,
      source: 'while True: pass',
      atTarget: false,
      recorded: META.recorded,
      notebook: null,
      timeoutMs: 2500
    });
    expect(model.state).toMatchObject({
      verdict: null,
      crashLine: null,
      stepStates: ['done', 'error', 'pending'],
      status: {
        code: 'replay.stopped',
        params: { cell: { cellIndex: 1, executionCount: 2 }, seconds: 2.5 }
      }
    });
  });

  it('keeps the reason a run could not start, and says it without changing the run', () => {
    const model = new ReplayModel(META);
    model.start('recorded', META.recordedPlan);
    const reason = new Error('no kernel');
    model.failed(reason);
    expect(model.state.phase).toBe('finished');
    expect(model.state.status).toEqual({
      code: 'replay.no-start',
      params: { reason }
    });
    model.say({ code: 'replay.busy' });
    expect(model.state).toMatchObject({
      phase: 'finished',
      status: { code: 'replay.busy' }
    });
  });

  it('emits its state again when a run is over', () => {
    const model = new ReplayModel(META);
    let emitted = 0;
    model.stateChanged.connect(() => {
      emitted += 1;
    });
    model.isRunning = true;
    expect(model.isRunning).toBe(true);
    expect(emitted).toBe(0);
    model.isRunning = false;
    expect(emitted).toBe(1);
  });

  it('keeps only the latest probe of the environment', () => {
    const model = new ReplayModel(META);
    const reports: unknown[] = [];
    model.driftChanged.connect((_, r) => {
      reports.push(r);
    });
    const first = model.probing();
    const second = model.probing();
    model.probed(second, null, 'the kernel did not answer');
    model.probed(first, null, 'stale');
    expect(model.driftError).toBe('the kernel did not answer');
    expect(reports).toHaveLength(1);
  });
});
