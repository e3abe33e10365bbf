/**
 * The repair check's kernel-side probe on real kernels: the tracer records the
 * lines that ran and the exceptions raised in one cell (caught ones included),
 * the namespace summaries say what the cell changed, results come back through
 * user_expressions without printing, and nothing is left in the user
 * namespace. Runs on the default Python kernel and, when the test script made
 * one (`.venv-py310`, the benchmark container's Python), on Python 3.10.
 */
import { existsSync } from 'fs';
import * as path from 'path';

import { KernelManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import {
  EVIDENCE_ENVIRONMENT_EXPRESSION,
  EVIDENCE_REPORT_EXPRESSION,
  EVIDENCE_STOP_CODE,
  evidenceInstallCode,
  evidenceStartCode
} from '../../src/kernel/evidenceSnippets';
import { PlanRunner } from '../../src/kernel/runner';
import type { IRunResult } from '../../src/kernel/runner';
import { lineEvidence } from '../../src/repair/evidence';
import { readProbeReport } from '../../src/repair/probeReport';
import type { IProbeReport } from '../../src/repair/probeReport';
import { recordedPlan } from '../../src/replay/plan';

import { addKernelspecs, sharedServer } from '../sharedServer';

jest.setTimeout(180000);

const PY310 =
  process.env.JUNOBENCH_PY310 ??
  path.resolve(__dirname, '../../.venv-py310/bin/python');
const HAS_PY310 = existsSync(PY310);
if (!HAS_PY310) {
  console.log(
    `skipping the Python 3.10 kernel: ${PY310} is absent (scripts/test.sh makes it)`
  );
}

const server = sharedServer();

/** Run cells in order, probing the ones whose index is in `probed`. */
async function run(
  kernel: Kernel.IKernelConnection,
  sources: string[],
  probed: number[]
): Promise<IRunResult> {
  const plan = recordedPlan({
    cells: sources.map((source, i) => ({
      cell_type: 'code',
      source,
      execution_count: i + 1,
      outputs: []
    })),
    nbformat: 4
  });
  const runner = new PlanRunner({ kernel, timeoutMs: 60000 });
  return runner.run(plan, {
    continueOnErrorBefore: sources.length,
    setupCode: evidenceInstallCode(),
    instrument: (index, step) =>
      probed.includes(index)
        ? {
            before: evidenceStartCode(step.source, {
              trace: true,
              snapshot: true
            }),
            after: EVIDENCE_STOP_CODE,
            collect: EVIDENCE_REPORT_EXPRESSION
          }
        : null
  });
}

function report(result: IRunResult, index: number): IProbeReport {
  const r = readProbeReport(result.steps[index].probe);
  if (!r) {
    throw new Error(`no probe report for step ${index}`);
  }
  return r;
}

const KERNELS: Array<[string, boolean]> = [
  ['python3', true],
  ['py310', HAS_PY310]
];

let removeKernelspecs: () => void;

beforeAll(() => {
  removeKernelspecs = addKernelspecs(
    HAS_PY310
      ? {
          py310: {
            argv: [
              PY310,
              '-m',
              'ipykernel_launcher',
              '-f',
              '{connection_file}'
            ],
            display_name: 'Python 3.10',
            language: 'python'
          }
        }
      : {}
  );
});

afterAll(() => {
  removeKernelspecs?.();
});

describe.each(KERNELS)(
  'the evidence probe on the %s kernel',
  (name, present) => {
    const maybe = present ? it : it.skip;
    let manager: KernelManager;
    let kernel: Kernel.IKernelConnection;

    beforeAll(async () => {
      if (!present) {
        return;
      }
      manager = new KernelManager({ serverSettings: server.settings });
      await manager.ready;
      kernel = await manager.startNew({ name });
    });

    afterAll(async () => {
      if (present) {
        await kernel.shutdown();
        manager.dispose();
      }
    });

    maybe('records a swallowed exception and the lines around it', async () => {
      const result = await run(
        kernel,
        [
          'data = {"a": 1}',
          'try:\n    value = data["b"]\nexcept Exception:\n    value = 0\nfinal = value + 1',
          'import contextlib\nwith contextlib.suppress(KeyError):\n    data["c"]'
        ],
        [1, 2]
      );
      expect(result.status).toBe('completed');
      const tried = report(result, 1);
      expect(tried.trace!.exceptions).toEqual([
        expect.objectContaining({
          ename: 'KeyError',
          evalue: "'b'",
          line: 2,
          key: 'builtins.KeyError',
          genuine: true,
          benign: false,
          inCell: true
        })
      ]);
      // Every statement of the cell ran, the handler's included.
      expect(tried.trace!.units!.filter(u => !u.ran).map(u => u.text)).toEqual(
        []
      );
      const suppressed = report(result, 2);
      expect(suppressed.trace!.exceptions.map(e => [e.ename, e.line])).toEqual([
        ['KeyError', 3]
      ]);
      // The probe printed nothing: the cells' own outputs are all there is.
      expect(result.steps.flatMap(s => s.outputs)).toEqual([]);
    });

    maybe(
      'sees a statement under if False and one turned into a string',
      async () => {
        const result = await run(
          kernel,
          [
            'x = 1\nif False:\n    x = 2\n"""\nx = 3\n"""\ny = [i * x for i in range(3)]'
          ],
          [0]
        );
        const trace = report(result, 0).trace!;
        expect(lineEvidence(trace, 1).executed).toBe(true);
        expect(lineEvidence(trace, 3).executed).toBe(false);
        expect(lineEvidence(trace, 5).inString).toBe(true);
        // A comprehension's own frame belongs to the cell too.
        expect(lineEvidence(trace, 7).executed).toBe(true);
      }
    );

    maybe(
      'follows functions of other cells the probed cell calls, and only while it runs',
      async () => {
        const result = await run(
          kernel,
          [
            'def parse(v):\n    try:\n        return int(v)\n    except ValueError:\n        return -1',
            'values = [parse(v) for v in ["1", "x"]]'
          ],
          [1]
        );
        // parse's frames come from cell 0: a helper that catches is seen, and named as such.
        expect(
          report(result, 1).trace!.exceptions.map(e => [
            e.ename,
            e.inCell,
            e.function
          ])
        ).toEqual([['ValueError', false, 'parse']]);
        const both = await run(
          kernel,
          [
            'def parse2(v):\n    try:\n        return int(v)\n    except ValueError:\n        return -1\nvalues = [parse2(v) for v in ["1", "x"]]'
          ],
          [0]
        );
        expect(
          report(both, 0).trace!.exceptions.map(e => [e.ename, e.line])
        ).toEqual([['ValueError', 3]]);
      }
    );

    maybe(
      'says what a cell created, rebound, mutated and deleted, in summaries',
      async () => {
        const result = await run(
          kernel,
          [
            'import numpy as np\nimport pandas as pd\nkeep = [1, 2]\nframe = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})\nold = 3',
            'keep.append(3)\nframe = frame.drop(columns=["b"])\nzeros = np.zeros((2, 3))\ndel old'
          ],
          [1]
        );
        const effect = report(result, 1).effect!;
        expect(effect.changes).toEqual({
          keep: 'mutated',
          frame: 'rebound',
          zeros: 'created',
          old: 'deleted'
        });
        // pandas 3 names the class pandas.DataFrame, older ones pandas.core.frame.DataFrame:
        // both sides of a comparison always come from the same environment.
        expect(effect.after.frame).toMatchObject({
          type: expect.stringMatching(/^pandas\..*DataFrame$/),
          shape: [2, 1],
          columns: ['a'],
          numeric: { sum: 3, constant: false }
        });
        expect(effect.after.zeros).toMatchObject({
          type: 'numpy.ndarray',
          shape: [2, 3],
          dtype: 'float64',
          constant: true
        });
        expect(effect.after.np).toEqual({
          type: 'module',
          name: 'numpy',
          definition: true
        });
      }
    );

    maybe('follows a %%time cell body too', async () => {
      const result = await run(
        kernel,
        ['%%time\ntry:\n    {}["k"]\nexcept KeyError:\n    pass'],
        [0]
      );
      const trace = report(result, 0).trace!;
      expect(trace.exceptions.map(e => e.ename)).toEqual(['KeyError']);
      // The body's statements are units at their lines in the cell.
      expect(
        trace.units!.filter(u => u.nested).map(u => [u.line, u.kind, u.ran])
      ).toEqual(
        expect.arrayContaining([
          [2, 'Try', true],
          [5, 'Pass', true]
        ])
      );
    });

    maybe(
      'tells a fitted scikit-learn estimator from an unfitted one',
      async () => {
        const result = await run(
          kernel,
          [
            'import numpy as np\nfrom sklearn.linear_model import Ridge\nfresh = Ridge()\ntrained = Ridge()',
            'trained.fit(np.arange(8.0).reshape(4, 2), np.arange(4.0))'
          ],
          [1]
        );
        const effect = report(result, 1).effect!;
        expect(effect.changes).toEqual({ trained: 'mutated' });
        expect(effect.after.fresh).toMatchObject({ fitted: false });
        expect(effect.after.trained).toMatchObject({ fitted: true });
      }
    );

    maybe(
      'summarises a 1 GiB array by its structure, without copying it',
      async () => {
        const result = await run(
          kernel,
          ['import numpy as np', 'big = np.zeros(1 << 27)'],
          [1]
        );
        const big = report(result, 1).effect!.after.big;
        expect(big).toMatchObject({
          type: 'numpy.ndarray',
          shape: [1 << 27],
          dtype: 'float64',
          view: { partial: true, table: [1 << 27, 1] }
        });
        // Sampled values only: no sum over a billion bytes.
        expect(big.sum).toBeUndefined();
        expect(
          (big.view as { columns: Array<Record<string, unknown>> }).columns[0]
            .sum
        ).toBeUndefined();
        await kernel.requestExecute({ code: 'del big', silent: true }).done;
      }
    );

    maybe('leaves no name behind and reports the environment', async () => {
      const runner = new PlanRunner({ kernel });
      const env = (await runner.evaluate(
        evidenceInstallCode(),
        EVIDENCE_ENVIRONMENT_EXPRESSION
      )) as { python: string; distributions: number; digest: string };
      expect(env.python).toMatch(name === 'py310' ? /^3\.10\./ : /^3\.\d+\./);
      expect(env.distributions).toBeGreaterThan(10);
      expect(env.digest).toMatch(/^[0-9a-f]{16}$/);
      const leftovers = await kernel.requestExecute({
        code: '',
        silent: true,
        user_expressions: {
          names:
            'sorted(k for k in get_ipython().user_ns if k.startswith("__jb") or "junobench" in k)'
        }
      }).done;
      const value = (
        leftovers.content as unknown as {
          user_expressions: Record<string, { data: Record<string, string> }>;
        }
      ).user_expressions.names.data['text/plain'];
      expect(value).toBe('[]');
    });
  }
);
