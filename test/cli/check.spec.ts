/**
 * `junobench check` against a real Jupyter server started on loopback: correct
 * repairs saved from working copies pass, hidden crashes fail. The reference
 * fixed and reproduced notebooks are checked, with their exact statuses, by the
 * mutation corpus (scripts/check-corpus.js); a test here holds it to them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { checkNotebook } from '../../src/cli/check';
import { MemoryReferenceCache } from '../../src/repair/repairCheck';
import type { ICheckReport } from '../../src/cli/check';
import { sharedServer } from '../sharedServer';
import type { IServerHandle } from '../../src/cli/server';
import { loadLocalCasebook } from '../../src/cli/verify';
import type { ICasebook } from '../../src/casebook/types';
import { makeWorkingCopy } from '../../src/model/workingCopy';
import { sourceText } from '../../src/replay/plan';
import type { INotebookJSON } from '../../src/replay/types';

import { runCli, serverArgs } from './capture';
import { demoNotebook } from '../replay/notebooks';
import { cellName } from '../../src/i18n';
import type { ICellRef } from '../../src/i18n';

jest.setTimeout(180000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');
const CORPUS = path.resolve(__dirname, '../check-corpus');
const CASES = [
  'NBspecific_1',
  'NBspecific_2',
  'NBspecific_3',
  'matplotlib_1',
  'numpy_1',
  'pandas_1',
  'sklearn_1',
  // Shapes of notebooks from elsewhere: no cell ids (numpy_2), a fixed
  // notebook with ids of its own (sklearn_2), crashes in the last cell.
  'numpy_2',
  'pandas_2',
  'sklearn_2'
];

const load = demoNotebook;

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

/**
 * A learner's correct repair: the working copy with the reference fix's sources and cell
 * order, saved after the learner ran the whole notebook live (so the target ran cleanly).
 */
function correctRepair(name: string): INotebookJSON {
  const nb = workingCopy(name);
  const fixed = load(name, 'fixed');
  const byId = new Map(nb.cells.map(c => [c.id, c]));
  // Cells without ids (numpy_2) pair by position: the fix keeps the cell order.
  nb.cells = fixed.cells.map((f, i) => {
    const mine = (f.id ? byId.get(f.id) : nb.cells[i]) ?? { ...f };
    mine.source = sourceText(f);
    return mine;
  });
  let count = 0;
  nb.cells.forEach(c => {
    if (c.cell_type === 'code') {
      c.execution_count = ++count;
      c.outputs = [];
    }
  });
  return nb;
}

/** Run checks a few at a time. */
async function pool<T, R>(
  items: T[],
  jobs: number,
  work: (item: T) => Promise<R>
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]);
      }
    })
  );
  return out;
}

describe('junobench check', () => {
  let server: IServerHandle;
  let book: ICasebook;
  let tmp: string;

  beforeAll(async () => {
    // The shared server's root stands for the folder above the casebook, to
    // exercise the server-root mapping.
    server = sharedServer();
    book = await loadLocalCasebook(DEMO);
    tmp = mkdtempSync(path.join(tmpdir(), 'junobench-check-'));
  });

  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
  });

  // One reference run pair per case for the whole file, as an instructor grading a class has.
  const cache = new MemoryReferenceCache();
  const check = (caseName: string, notebook: INotebookJSON, label: string) =>
    checkNotebook({
      cache,
      casebook: book,
      casebookDir: DEMO,
      caseName,
      notebook,
      notebookLabel: label,
      settings: server.settings,
      serverRoot: ROOT,
      timeoutMs: 120000
    });

  it('passes the correct repair of every case saved from its working copy', async () => {
    const reports: ICheckReport[] = await pool(CASES, 2, name =>
      check(name, correctRepair(name), `${name} repair`)
    );
    expect(reports.map(r => `${r.notebook}: ${r.status}`)).toEqual(
      CASES.map(name => `${name} repair: solved`)
    );
    for (const r of reports) {
      expect(r.passed).toBe(true);
    }
  });

  it('leaves the reference fixed and reproduced notebooks to the mutation corpus, with their statuses', () => {
    // scripts/check-corpus.js (a CI step) runs test/check-corpus through this same checkNotebook and
    // requires each exact status; the notebooks there must be the casebook's own, unchanged.
    const manifest = JSON.parse(
      readFileSync(path.join(CORPUS, 'manifest.json'), 'utf-8')
    ) as {
      entries: {
        case: string;
        variant: string;
        notebook: string;
        expected: string;
      }[];
    };
    for (const name of CASES) {
      for (const kind of ['fixed', 'reproduced'] as const) {
        const entry = manifest.entries.find(
          e => e.case === name && e.variant === kind
        );
        expect(entry).toBeDefined();
        // A fresh run cures notebook-specific crashes except NBspecific_1, whose
        // top-to-bottom order still uses the scaler before it is made.
        const expected =
          kind === 'fixed'
            ? 'solved'
            : name.startsWith('NBspecific') && name !== 'NBspecific_1'
              ? 'fails-live'
              : 'fails-fresh';
        expect(`${name} ${kind}: ${entry!.expected}`).toBe(
          `${name} ${kind}: ${expected}`
        );
        const inCorpus = JSON.parse(
          readFileSync(path.join(CORPUS, entry!.notebook), 'utf-8')
        ) as INotebookJSON;
        // The corpus keeps only error outputs (all the check reads of outputs).
        const own = load(name, kind);
        own.cells = own.cells.map(c =>
          c.cell_type === 'code'
            ? {
                ...c,
                outputs: (c.outputs ?? []).filter(
                  o => o.output_type === 'error'
                )
              }
            : c
        );
        expect(inCorpus).toEqual(own);
      }
    }
  });

  it('prints PASS and exits 0 for a hand-made numpy_1 repair', async () => {
    const nb = workingCopy('numpy_1');
    const target = nb.cells.find(c => c.id === 'bce779cb')!;
    target.source = sourceText(target).replace(/axis=1/g, 'axis=0');
    const file = path.join(tmp, 'numpy_1-1.ipynb');
    writeFileSync(file, JSON.stringify(nb));
    const { code, out } = await runCli([
      'check',
      DEMO,
      'numpy_1',
      file,
      ...serverArgs(server, ROOT)
    ]);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^numpy_1: PASS \(solved\)/);
  });

  it.each([
    {
      title: 'a commented-out crash line',
      replacement: '# Z = (data - mu) / sigma',
      status: 'hidden-crash',
      guard: ['target-commented-out'],
      first: /commented out/
    },
    {
      title: 'a commented-out crash line with a made-up value in its place',
      replacement: '# Z = (data - mu) / sigma\nZ = data',
      status: 'different-effect',
      guard: [],
      // mu and sigma are still per row, and Z is the raw data.
      first:
        /After the target cell, `mu` differs from the reference fix’s \(shape\)/
    }
  ])(
    'refuses $title with exit code 1 and JSON reasons',
    async ({ replacement, status, guard, first }) => {
      const nb = workingCopy('numpy_1');
      const target0 = nb.cells.find(c => c.id === 'bce779cb')!;
      target0.source = sourceText(target0).replace(
        'Z = (data - mu) / sigma',
        replacement
      );
      const file = path.join(tmp, 'numpy_1-2.ipynb');
      writeFileSync(file, JSON.stringify(nb));
      const { code, out } = await runCli([
        'check',
        DEMO,
        'numpy_1',
        file,
        '--json',
        ...serverArgs(server, ROOT)
      ]);
      expect(code).toBe(1);
      const report = JSON.parse(out.join('\n')) as ICheckReport;
      expect(report.passed).toBe(false);
      expect(report.status).toBe(status);
      expect(report.guard.map(g => g.kind)).toEqual(guard);
      expect(report.reasons[0]).toMatch(first);
      // Cells in the JSON: index, prompt and the name the learner sees.
      const target = nb.cells.indexOf(target0);
      expect(report.evidence?.target?.cell).toMatchObject({
        cellIndex: target,
        name: expect.stringMatching(new RegExp(`^cell ${target + 1} \\[`))
      });
      const cells = [
        report.evidence?.target?.cell,
        report.evidence?.referenceTarget,
        ...report.findings.flatMap(f => ('cell' in f ? [f.cell] : []))
      ].filter(c => c !== undefined && c !== null) as Array<
        ICellRef & { name: string }
      >;
      expect(cells.length).toBeGreaterThan(1);
      for (const c of cells) {
        expect(c.name).toBe(cellName(c.cellIndex, c.executionCount));
      }
      if (status === 'different-effect') {
        expect(report.reasons.join('\n')).toMatch(
          /`Z` differs from the reference fix’s \(value\)/
        );
      }
    }
  );

  it.each([
    [['check', DEMO, 'numpy_1'], /expected <casebook> <case> <notebook.ipynb>/],
    [
      ['check', DEMO, 'numpy_1', '/no/such/file.ipynb'],
      /\/no\/such\/file\.ipynb: cannot be read/
    ],
    [['check', DEMO, 'nope', __filename], /is not valid JSON/],
    [
      [
        'check',
        DEMO,
        'nope',
        path.join(DEMO, 'benchmark/numpy_1/numpy_1_fixed.ipynb')
      ],
      /no case "nope"/
    ]
  ])('exits 2 on bad input %#', async (argv, message) => {
    const { code, err } = await runCli([...argv, ...serverArgs(server, ROOT)]);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(message);
  });
});
