/**
 * The semantics of "Check my fix": cells in play, the anti-cheat guard, the
 * live result and the verdict, on the demo cases' notebooks.
 */

import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { makeWorkingCopy } from '../../src/model/workingCopy';
import { sourceText } from '../../src/replay/plan';
import type { INbCell, INotebookJSON } from '../../src/replay/types';
import { cellRef, renderCell } from '../../src/i18n';
import {
  judgeCheck,
  judgeRepair,
  planCheck,
  renderVerdict
} from '../../src/repair/check';
import type {
  CheckStatus,
  GuardFindingKind,
  ICheckPlan,
  LiveResult
} from '../../src/repair/check';
import { demoNotebook } from '../replay/notebooks';
import { stopOf, upperFirst } from '../../src/kernel/stop';
import type { KernelFate } from '../../src/kernel/stop';

const load = demoNotebook;

function reference(name: string) {
  return { reproduced: load(name, 'reproduced'), fixed: load(name, 'fixed') };
}

function workingCopy(name: string): INotebookJSON {
  return makeWorkingCopy(load(name, 'reproduced'), {
    caseName: name,
    casebook: 'demo',
    caseFolder: `benchmark/${name}`,
    attempt: 1,
    recordedEname: '',
    recordedEvalue: '',
    now: new Date(0)
  });
}

function cellById(nb: INotebookJSON, id: string): INbCell {
  const cell = nb.cells.find(c => c.id === id);
  if (!cell) {
    throw new Error(`no cell ${id}`);
  }
  return cell;
}

/** Set a cell's source, optionally marking it as run live (ok or error). */
function edit(
  nb: INotebookJSON,
  id: string,
  change: (source: string) => string,
  live?: 'ok' | 'error',
  count = 99
): INotebookJSON {
  const cell = cellById(nb, id);
  cell.source = change(sourceText(cell));
  if (live) {
    ran(cell, live, count);
  }
  return nb;
}

function ran(cell: INbCell, live: 'ok' | 'error', count = 99): void {
  cell.execution_count = count;
  cell.outputs =
    live === 'error'
      ? [
          {
            output_type: 'error',
            ename: 'KeyError',
            evalue: 'x',
            traceback: []
          }
        ]
      : [];
}

/** A fake fresh-kernel run of a check plan: clean, or failing at the target. */
function fakeRun(plan: ICheckPlan, fresh: 'clean' | 'fails'): IRunResult {
  const steps: IStepResult[] = [];
  for (const [index, step] of plan.steps.entries()) {
    const error =
      fresh === 'fails' && (step.isTarget || index === plan.steps.length - 1)
        ? { ename: 'NameError', evalue: 'boom', traceback: [], line: 1 }
        : null;
    steps.push({
      index,
      step,
      outputs: [],
      executionCount: index + 1,
      durationMs: 1,
      error
    });
    if (error) {
      return {
        status: 'crashed',
        steps,
        failedIndex: index,
        error,
        stop: stopOf('crashed', steps.length, null, error),
        durationMs: 1
      };
    }
  }
  return {
    status: 'completed',
    steps,
    failedIndex: null,
    error: null,
    stop: stopOf('completed', steps.length, null, null),
    durationMs: 1
  };
}

const NUMPY_TARGET = 'bce779cb';
const PANDAS_TARGET = '8c03095f';

describe('planCheck and judgeCheck', () => {
  it.each<{
    title: string;
    caseName: string;
    nbSpecific: boolean;
    learner: () => INotebookJSON;
    fresh: 'clean' | 'fails' | null;
    guard: GuardFindingKind[];
    live: LiveResult;
    status: CheckStatus;
    passed: boolean;
  }>([
    {
      title: 'genuine fix of the crash line',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () =>
        edit(workingCopy('numpy_1'), NUMPY_TARGET, s =>
          s.replace(/axis=1/g, 'axis=0')
        ),
      fresh: 'clean',
      guard: [],
      live: 'not-run',
      status: 'solved',
      passed: true
    },
    {
      title: 'genuine fix that rewrites the crash line',
      caseName: 'pandas_1',
      nbSpecific: false,
      learner: () =>
        edit(
          workingCopy('pandas_1'),
          PANDAS_TARGET,
          s => s.replace(/\['units'\]/g, "['units_sold']"),
          'ok'
        ),
      fresh: 'clean',
      guard: [],
      live: 'ok',
      status: 'solved',
      passed: true
    },
    {
      title: 'deleted target',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () => {
        const nb = workingCopy('numpy_1');
        nb.cells = nb.cells.filter(c => c.id !== NUMPY_TARGET);
        return nb;
      },
      fresh: 'fails',
      guard: ['target-deleted'],
      live: 'not-run',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'emptied target',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () => edit(workingCopy('numpy_1'), NUMPY_TARGET, () => '\n'),
      fresh: 'clean',
      guard: ['target-emptied'],
      live: 'not-run',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'whole target commented out',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () =>
        edit(workingCopy('numpy_1'), NUMPY_TARGET, s =>
          s
            .split('\n')
            .map(l => `# ${l}`)
            .join('\n')
        ),
      fresh: 'clean',
      guard: ['target-commented-out'],
      live: 'not-run',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'commented-out failing line',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () =>
        edit(
          workingCopy('numpy_1'),
          NUMPY_TARGET,
          s =>
            s.replace('Z = (data - mu) / sigma', '# Z = (data - mu) / sigma'),
          'ok'
        ),
      fresh: 'clean',
      guard: ['target-commented-out'],
      live: 'ok',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'failing line removed',
      caseName: 'pandas_1',
      nbSpecific: false,
      learner: () =>
        edit(workingCopy('pandas_1'), PANDAS_TARGET, s =>
          s
            .split('\n')
            .filter(l => !l.includes("['units']"))
            .join('\n')
        ),
      fresh: 'clean',
      guard: ['failing-line-removed'],
      live: 'not-run',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'live-only fix: works live, fails fresh',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () => {
        const nb = workingCopy('numpy_1');
        ran(cellById(nb, NUMPY_TARGET), 'ok');
        return nb;
      },
      fresh: 'fails',
      guard: [],
      live: 'ok',
      status: 'works-live-only',
      passed: false
    },
    {
      title: 'unmodified reproduced notebook',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () => load('numpy_1', 'reproduced'),
      fresh: 'fails',
      guard: [],
      live: 'error',
      status: 'fails-fresh',
      passed: false
    },
    {
      title: 'NB-specific: fresh run clean but live target still fails',
      caseName: 'NBspecific_2',
      nbSpecific: true,
      learner: () => load('NBspecific_2', 'reproduced'),
      fresh: 'clean',
      guard: [],
      live: 'error',
      status: 'fails-live',
      passed: false
    },
    {
      title: 'NB-specific: fresh run clean, target not run live',
      caseName: 'NBspecific_2',
      nbSpecific: true,
      learner: () => workingCopy('NBspecific_2'),
      fresh: 'clean',
      guard: [],
      live: 'not-run',
      status: 'not-run-live',
      passed: false
    },
    {
      title: 'NB-specific: solved with the live target ok',
      caseName: 'NBspecific_2',
      nbSpecific: true,
      learner: () => {
        const nb = workingCopy('NBspecific_2');
        ran(cellById(nb, '826bcac9'), 'ok', 4);
        return nb;
      },
      fresh: 'clean',
      guard: [],
      live: 'ok',
      status: 'solved',
      passed: true
    },
    {
      title: 'NB-specific reference fixed notebook',
      caseName: 'NBspecific_1',
      nbSpecific: true,
      learner: () => load('NBspecific_1', 'fixed'),
      fresh: 'clean',
      guard: [],
      live: 'ok',
      status: 'solved',
      passed: true
    },
    {
      title: 'guard findings win even before the fresh run',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () => edit(workingCopy('numpy_1'), NUMPY_TARGET, () => ''),
      fresh: null,
      guard: ['target-emptied'],
      live: 'not-run',
      status: 'hidden-crash',
      passed: false
    },
    {
      title: 'a sound repair before the fresh run is not checked yet',
      caseName: 'numpy_1',
      nbSpecific: false,
      learner: () =>
        edit(workingCopy('numpy_1'), NUMPY_TARGET, s =>
          s.replace(/axis=1/g, 'axis=0')
        ),
      fresh: null,
      guard: [],
      live: 'not-run',
      status: 'not-checked',
      passed: false
    }
  ])(
    '$title → $status',
    ({ caseName, nbSpecific, learner, fresh, guard, live, status, passed }) => {
      const options = { notebookSpecific: nbSpecific };
      const plan = planCheck(learner(), reference(caseName), options);
      expect(plan.guard.map(g => g.kind)).toEqual(guard);
      expect(plan.live).toBe(live);
      const verdict = judgeCheck(
        plan,
        fresh ? fakeRun(plan, fresh) : null,
        options
      );
      expect(verdict.status).toBe(status);
      expect(verdict.passed).toBe(passed);
      expect(renderVerdict(verdict).reasons.length).toBeGreaterThan(0);
    }
  );

  it('puts an added helper cell in play, with the target it is part of', () => {
    const nb = workingCopy('numpy_1');
    const at = nb.cells.findIndex(c => c.id === NUMPY_TARGET);
    nb.cells.splice(at, 0, {
      cell_type: 'code',
      id: 'helper-1',
      source: 'def zscore(a):\n    return (a - a.mean(axis=0)) / a.std(axis=0)',
      execution_count: null,
      outputs: [],
      metadata: {}
    });
    edit(nb, NUMPY_TARGET, () => 'Z = zscore(data)\nZ[:5].round(3)');
    const plan = planCheck(nb, reference('numpy_1'), {
      notebookSpecific: false
    });
    // The helper brings the target's code closer to the crashing cell's: the target was split
    // over the two cells, which run as one step where the target is.
    const ids = plan.steps.map(s => nb.cells[s.cellIndex].id);
    expect(ids).toEqual([
      '0becb3d7',
      'e6b98a0e',
      NUMPY_TARGET,
      'baca3a11',
      '50efa744',
      'a0746479'
    ]);
    expect(plan.inPlay[at]).toBe('added');
    expect(plan.targetSpan).toEqual([at, at + 1]);
    const target = plan.steps.find(s => s.isTarget)!;
    expect(target.cellIndex).toBe(at + 1);
    expect(target.source).toBe(
      'def zscore(a):\n    return (a - a.mean(axis=0)) / a.std(axis=0)\nZ = zscore(data)\nZ[:5].round(3)'
    );
    // `Z = zscore(data)` is the failing statement rewritten, not removed.
    expect(plan.guard).toEqual([]);
    expect(
      judgeCheck(plan, fakeRun(plan, 'clean'), { notebookSpecific: false })
    ).toMatchObject({ passed: true, status: 'solved' });
  });

  it('traces the cells whose code changed, not those that differ only in their comments', () => {
    const nb = workingCopy('numpy_1');
    const code = nb.cells.filter(c => c.cell_type === 'code');
    // A header comment on every cell (as LLM agents write them), one changed string that
    // holds a `#`, and one cell whose code changed after its comment.
    for (const cell of code) {
      cell.source = `# step reviewed by the agent\n${sourceText(cell)}  # ok`;
    }
    const target = planCheck(nb, reference('numpy_1'), {
      notebookSpecific: false
    }).targetCellIndex;
    const [hashString, changed] = code
      .map(c => nb.cells.indexOf(c))
      .filter(i => i !== target)
      .slice(-2);
    nb.cells[hashString].source += '\nlabel = "#1"';
    nb.cells[changed].source += '\nsame = 1 + 1  # a comment';
    const plan = planCheck(nb, reference('numpy_1'), {
      notebookSpecific: false
    });
    expect(plan.traced.sort((a, b) => a - b)).toEqual(
      [target!, hashString, changed].sort((a, b) => a - b)
    );
  });

  it('says a timed-out fresh run timed out, not that its cell raised the interrupt', () => {
    const plan = planCheck(workingCopy('numpy_1'), reference('numpy_1'), {
      notebookSpecific: false
    });
    const run = fakeRun(plan, 'fails');
    const last = run.steps[run.steps.length - 1];
    last.error = {
      ename: 'KeyboardInterrupt',
      evalue: '',
      traceback: [],
      line: 2
    };
    const cell = cellRef(last.step.cellIndex, last.step.executionCount);
    const timedOut: IRunResult = {
      ...run,
      status: 'timeout',
      error: last.error,
      stop: { code: 'timeout', cell, seconds: 3 }
    };
    const verdict = judgeCheck(plan, timedOut, { notebookSpecific: false });
    expect(verdict.passed).toBe(false);
    expect(verdict.findings).toContainEqual({
      code: 'fresh-unfinished',
      stop: { code: 'timeout', cell, seconds: 3 }
    });
    expect(verdict.findings.map(f => f.code)).not.toContain('fresh-error');
    expect(renderVerdict(verdict).reasons).toContain(
      `The fresh-kernel run did not finish: ${upperFirst(renderCell(cell))} ran longer than 3 s and was interrupted.`
    );
    // A cell that raised by itself is still named with its exception.
    expect(
      judgeCheck(plan, run, { notebookSpecific: false }).findings.map(
        f => f.code
      )
    ).toContain('fresh-error');
  });

  /** The fixed notebook run live by the learner, whose fresh run loses its kernel in `at`. */
  function kernelGone(fate: KernelFate, at: 'target' | 'last') {
    const plan = planCheck(load('numpy_1', 'fixed'), reference('numpy_1'), {
      notebookSpecific: false
    });
    const run = fakeRun(plan, 'clean');
    const index =
      at === 'last'
        ? plan.steps.length - 1
        : plan.steps.findIndex(s => s.isTarget);
    const steps = run.steps.slice(0, index + 1);
    const step = steps[index].step;
    const cell = cellRef(step.cellIndex, step.executionCount);
    const gone: IRunResult = {
      ...run,
      status: 'kernel-died',
      steps,
      failedIndex: index,
      stop: { code: 'kernel', fate, cell },
      kernelFate: fate
    };
    return { plan, run: gone, cell };
  }

  it('fails a repair whose kernel dies, naming the cell, whatever the live kernel says', () => {
    const { plan, run, cell } = kernelGone('died', 'last');
    expect(plan.live).toBe('ok');
    for (const verdict of [
      judgeCheck(plan, run, { notebookSpecific: false }),
      judgeRepair(plan, run, { notebookSpecific: false }, { reference: null })
    ]) {
      expect(verdict).toMatchObject({
        passed: false,
        status: 'fails-fresh',
        grade: 'not-solved'
      });
      expect(verdict.findings[0]).toEqual({
        code: 'kernel-died',
        run: 'fresh',
        cell
      });
      // Not "state a restart loses": the notebook ended its own kernel.
      expect(verdict.findings.map(f => f.code)).not.toContain('live-only');
      expect(renderVerdict(verdict).reasons[0]).toBe(
        `From a fresh kernel, the kernel died while ${renderCell(cell)} ran: its process ended (an exit such as \`os._exit\`, a signal, or a lack of memory), so the notebook cannot run to its end.`
      );
    }
  });

  it('does not ask the probe about the cell whose kernel died', () => {
    const { plan, run } = kernelGone('died', 'target');
    const verdict = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      { reference: null }
    );
    expect(verdict.status).toBe('fails-fresh');
    expect(verdict.findings.map(f => f.code)).not.toContain('no-evidence');
  });

  it.each<KernelFate>(['lost', 'shut-down', 'restarted'])(
    'leaves a repair not checked when its kernel was %s by others',
    fate => {
      const { plan, run } = kernelGone(fate, 'last');
      const verdict = judgeCheck(plan, run, { notebookSpecific: false });
      expect(verdict).toMatchObject({
        passed: false,
        status: 'not-checked',
        grade: 'not-checked'
      });
      expect(verdict.findings[0]).toEqual({
        code: 'fresh-unfinished',
        stop: run.stop
      });
    }
  );

  it('runs the out-of-order fix by reordering top to bottom (NB-specific)', () => {
    const nb = workingCopy('NBspecific_1');
    const from = nb.cells.findIndex(c => c.id === 'ffb10869');
    const [moved] = nb.cells.splice(from, 1);
    const target = nb.cells.findIndex(c => c.id === '844527b5');
    nb.cells.splice(target, 0, moved);
    // The learner then restarted and ran all cells live: the target ran cleanly.
    nb.cells.forEach((c, i) => {
      if (c.cell_type === 'code') {
        ran(c, 'ok', i + 1);
      }
    });
    const options = { notebookSpecific: true };
    const plan = planCheck(nb, reference('NBspecific_1'), options);
    const ids = plan.steps.map(s => nb.cells[s.cellIndex].id);
    expect(ids.indexOf('ffb10869')).toBe(ids.indexOf('844527b5') - 1);
    expect(ids).toContain('201f2a14');
    expect(ids).toContain('4e1e9122');
    expect(plan.guard).toEqual([]);
    expect(judgeCheck(plan, fakeRun(plan, 'clean'), options)).toMatchObject({
      passed: true,
      status: 'solved'
    });
  });

  it('plans the cells after the target that the reference fix runs', () => {
    const nb = workingCopy('NBspecific_1');
    const plan = planCheck(nb, reference('NBspecific_1'), {
      notebookSpecific: true
    });
    const ids = plan.steps.map(s => nb.cells[s.cellIndex].id);
    // Recorded plan cells, the target, then the cells the fix runs after it.
    expect(ids).toEqual([
      'c751ad15',
      'cf917bd3',
      '9ce62592',
      '7fc84388',
      '844527b5',
      'ffb10869',
      '201f2a14',
      'fe4d4259',
      '4e1e9122'
    ]);
  });

  it('finds the target by alignment when the notebook has no JunoBench metadata', () => {
    const nb = load('pandas_1', 'reproduced');
    nb.cells.forEach(c => delete c.id);
    const plan = planCheck(nb, reference('pandas_1'), {
      notebookSpecific: false
    });
    expect(plan.targetCellIndex).toBe(5);
    expect(plan.live).toBe('error');
  });

  it('reports a reference fix without a counterpart of the target, never passes it', () => {
    // A fix saved separately (no shared ids) whose crashing cell was replaced by
    // unrelated code and another cell added: nothing aligns with the target.
    const fixed = load('numpy_1', 'fixed');
    fixed.cells.forEach((c, i) => (c.id = `other-${i}`));
    const t = fixed.cells.findIndex(c => sourceText(c).includes('axis=0'));
    fixed.cells[t].source = 'print("nothing to see")';
    fixed.cells.splice(t, 0, {
      cell_type: 'code',
      id: 'extra',
      source: 'import this',
      execution_count: 3,
      outputs: [],
      metadata: {}
    });
    const options = { notebookSpecific: false };
    const plan = planCheck(
      load('numpy_1', 'fixed'),
      { reproduced: load('numpy_1', 'reproduced'), fixed },
      options
    );
    expect(plan.fixedTargetIndex).toBeNull();
    expect(plan.guard.map(g => g.kind)).toEqual(['reference-unaligned']);
    const verdict = judgeCheck(plan, fakeRun(plan, 'clean'), options);
    expect(verdict).toMatchObject({ passed: false, status: 'unaligned' });
    expect(renderVerdict(verdict).reasons[0]).toMatch(
      /No cell of the reference fix matches the crashing cell 5 \[3\]/
    );
  });

  it('finds the target of a notebook saved without ids, and of one with other ids', () => {
    for (const ids of ['none', 'other'] as const) {
      const nb = load('pandas_1', 'reproduced');
      nb.cells.forEach((c, i) => {
        delete c.id;
        if (ids === 'other') {
          c.id = `mine-${i}`;
        }
      });
      const plan = planCheck(nb, reference('pandas_1'), {
        notebookSpecific: false
      });
      expect(plan.targetCellIndex).toBe(5);
      expect(plan.fixedTargetIndex).toBe(5);
      expect(plan.targetMatch).toBe('content');
      expect(plan.repairedLine).toBe(2);
    }
  });

  it('takes the target from the casebook, never from the target id the notebook names', () => {
    // The working copy's metadata names another cell as the target: a claim, not read.
    const nb = workingCopy('numpy_1');
    (nb.metadata!.junobench as Record<string, unknown>).targetCellId =
      'baca3a11';
    const plan = planCheck(nb, reference('numpy_1'), {
      notebookSpecific: false
    });
    expect(plan.steps.filter(s => s.isTarget).map(s => s.cellIndex)).toEqual([
      4
    ]);
    expect(plan.targetMatch).toBe('id');
  });
});
