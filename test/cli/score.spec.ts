/**
 * `junobench score` on the demo casebook: the built command line (as a user
 * runs it) with two tools and a batch report, its JSON and its HTML page; and
 * in-process, its help and its refusals.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import type { IBatchResult } from '../../src/cli/batch';
import type { ICheckReport } from '../../src/cli/check';

import { runCli } from './capture';

const ROOT = path.resolve(__dirname, '../..');
const DEMO = path.join(ROOT, 'demo/casebook');
const BUILT = path.join(ROOT, 'lib-cli/cli/score.js');

/** The demo cases with their labels and crashing cell, read here from the files. */
interface IDemoCase {
  name: string;
  library: string;
  crashType: string;
  rootCause: string;
  stage: string;
  cellIndex: number;
  cellId: string | null;
  count: number | null;
}

/** The labels of the demo cases from `junobench list --json`, the crashing cell from each notebook. */
async function demoCases(): Promise<IDemoCase[]> {
  const listed = await runCli(['list', DEMO, '--json']);
  const cases = JSON.parse(listed.out.join('\n')) as Record<string, string>[];
  return cases.map(c => {
    const nb = JSON.parse(
      fs.readFileSync(
        path.join(DEMO, 'benchmark', c.name, `${c.name}_reproduced.ipynb`),
        'utf8'
      )
    ) as {
      cells: {
        cell_type: string;
        id?: string;
        execution_count?: number | null;
        outputs?: { output_type: string }[];
      }[];
    };
    // The crashing cell: the first code cell holding an error output.
    const cellIndex = nb.cells.findIndex(
      cell =>
        cell.cell_type === 'code' &&
        (cell.outputs ?? []).some(o => o.output_type === 'error')
    );
    return {
      name: c.name,
      library: c.library,
      crashType: c.crashType,
      rootCause: c.rootCause,
      stage: c.pipelineStage,
      cellIndex,
      cellId: nb.cells[cellIndex].id ?? null,
      count: nb.cells[cellIndex].execution_count ?? null
    };
  });
}

describe('junobench score (built)', () => {
  let dir: string;
  let cases: IDemoCase[];
  let run: ReturnType<typeof spawnSync>;

  beforeAll(async () => {
    if (!fs.existsSync(BUILT)) {
      throw new Error(`${BUILT} is missing: run \`jlpm build:lib\` first`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-score-'));
    cases = await demoCases();
    // oracle: every label right; the cell named three ways in turn.
    const oracle = [
      'case,library,crash_type,root_cause,stage,cell,line',
      ...cases.map((c, i) => {
        const cell = [
          c.cellId ?? String(c.cellIndex),
          String(c.cellIndex),
          `[${c.count}]`
        ][c.cellId ? i % 3 : 1];
        return [c.name, c.library, c.crashType, c.rootCause, c.stage, cell, '']
          .map(f => `"${f}"`)
          .join(',');
      })
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'oracle.csv'), oracle);
    // guesser: "key error" and "data preparation" for all, the first case
    // twice, a case the casebook does not have.
    const guesser = [
      ...cases.map(c =>
        JSON.stringify({
          case: c.name,
          crash_type: 'Key Error',
          stage: 'data preparation'
        })
      ),
      JSON.stringify({ case: cases[0].name, crash_type: 'variable not found' }),
      JSON.stringify({ case: 'keras_99', crash_type: 'key error' })
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'guesser.jsonl'), guesser);
    // The oracle's repairs: the first two cases pass, the third fails.
    const results: (Pick<IBatchResult, 'case' | 'file' | 'error'> & {
      report: Pick<ICheckReport, 'passed'> | null;
    })[] = cases.slice(0, 3).map((c, i) => ({
      case: c.name,
      file: `${c.name}/fix.ipynb`,
      report: { passed: i < 2 },
      error: null
    }));
    fs.writeFileSync(path.join(dir, 'batch.json'), JSON.stringify({ results }));
    run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'bin/junobench.js'),
        'score',
        DEMO,
        '--predictions',
        path.join(dir, 'oracle.csv'),
        '--predictions',
        path.join(dir, 'guesser.jsonl'),
        '--repairs',
        path.join(dir, 'batch.json'),
        '--json',
        path.join(dir, 'score.json'),
        '--html',
        path.join(dir, 'score.html'),
        '--resamples',
        '300'
      ],
      { encoding: 'utf8', timeout: 60_000 }
    );
  }, 60_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints a column per tool and names what it left out; exit code 1', () => {
    expect(run.stdout).toMatch(/\s+oracle\s+guesser/);
    expect(run.stdout).toContain('300 resamples, seed 38');
    expect(run.stderr).toContain(
      `guesser: ${path.join(dir, 'guesser.jsonl')}, row ${cases.length + 1}: a second prediction for ${cases[0].name}; the first, row 1, counts`
    );
    expect(run.stderr).toContain('"keras_99" is not a case of the casebook');
    expect(run.status).toBe(1);
  });

  it('writes the JSON: the oracle right everywhere, the guesser as counted', () => {
    const json = JSON.parse(
      fs.readFileSync(path.join(dir, 'score.json'), 'utf8')
    );
    const [oracle, guesser] = json.tools;
    expect([oracle.name, guesser.name]).toEqual(['oracle', 'guesser']);
    expect(oracle.n).toBe(cases.length);
    for (const d of ['library', 'crashType', 'rootCause', 'stage']) {
      expect(oracle.dimensions[d].accuracy).toBe(1);
      expect(oracle.dimensions[d].macroF1).toBe(1);
      expect(oracle.dimensions[d].accuracyCI).toEqual([1, 1]);
    }
    expect(oracle.localisation.cell).toMatchObject({
      correct: cases.length,
      n: cases.length
    });
    expect(oracle.localisation.line.correct).toBe(0);
    const keyErrors = cases.filter(c => c.crashType === 'key error').length;
    expect(guesser.dimensions.crashType.accuracy).toBeCloseTo(
      keyErrors / cases.length,
      12
    );
    expect(guesser.dimensions.library.accuracy).toBe(0);
    expect(oracle.repairs.overall).toEqual({
      repaired: 2,
      total: cases.length,
      rate: 2 / cases.length
    });
    expect(guesser.repairs).toBeUndefined();
    expect(json.bootstrap).toEqual({
      resamples: 300,
      seed: 38,
      confidence: 0.95
    });
  });

  it('writes one HTML page with the chart libraries inlined and nothing loaded from the network', () => {
    const html = fs.readFileSync(path.join(dir, 'score.html'), 'utf8');
    const vega = fs.readFileSync(
      path.join(path.dirname(require.resolve('vega')), 'vega.min.js'),
      'utf8'
    );
    expect(html).toContain(vega.slice(0, 300));
    expect(html).toContain('vegaEmbed(');
    expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<link[^>]*href\s*=\s*["']?(https?:)?\/\//i);
    expect(html).toContain('oracle: crash type, confusion matrix');
  });
});

describe('junobench score (in process)', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-score-'));
    fs.writeFileSync(path.join(dir, 'empty.csv'), '');
    fs.writeFileSync(
      path.join(dir, 'ok.csv'),
      'case,stage\nnumpy_1,data preparation\n'
    );
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is described by junobench --help and junobench score --help', async () => {
    const all = await runCli(['--help']);
    expect(all.out.join('\n')).toContain(
      'junobench score <casebook> --predictions FILE'
    );
    const one = await runCli(['score', '--help']);
    const text = one.out.join('\n');
    expect(text).toContain('junobench score <casebook>');
    expect(text).toContain('macro-F1');
    expect(text).not.toContain('junobench verify');
  });

  it('names tools by base name, by path where two share one, by position where the file is given twice', async () => {
    fs.mkdirSync(path.join(dir, 'other'));
    fs.copyFileSync(
      path.join(dir, 'ok.csv'),
      path.join(dir, 'other', 'ok.csv')
    );
    const out = path.join(dir, 'names.json');
    const ok = path.join(dir, 'ok.csv');
    const other = path.join(dir, 'other', 'ok.csv');
    const single = await runCli([
      'score',
      DEMO,
      '--predictions',
      ok,
      '--json',
      out
    ]);
    expect(single.code).toBe(0);
    const run = await runCli([
      'score',
      DEMO,
      '--json',
      out,
      ...[ok, other, ok].flatMap(f => ['--predictions', f])
    ]);
    expect(run.code).toBe(0);
    const json = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      tools: { name: string }[];
    };
    expect(json.tools.map(t => t.name)).toEqual([
      `${ok} (1)`,
      other,
      `${ok} (3)`
    ]);
  });

  it.each([
    [['score', DEMO], 'give at least one --predictions FILE'],
    [['score', '--predictions', 'x.csv'], 'expected one casebook folder'],
    [['score', DEMO, '--predictions', 'EMPTY'], 'empty.csv: is empty'],
    [['score', DEMO, '--predictions', 'MISSING'], 'cannot read'],
    [
      [
        'score',
        DEMO,
        '--predictions',
        'OK',
        '--repairs',
        'OK',
        '--repairs',
        'OK'
      ],
      '2 --repairs for 1 --predictions'
    ],
    [
      ['score', DEMO, '--predictions', 'OK', '--repairs', 'OK'],
      'is not a report of `junobench check --submissions --json`'
    ],
    [
      ['score', DEMO, '--predictions', 'OK', '--seed', '1.5'],
      '--seed must be a whole number'
    ]
  ])('refuses %j with exit code 2', async (args, message) => {
    const files: Record<string, string> = {
      EMPTY: path.join(dir, 'empty.csv'),
      MISSING: path.join(dir, 'missing.csv'),
      OK: path.join(dir, 'ok.csv')
    };
    const { code, err } = await runCli(args.map(a => files[a] ?? a));
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(message);
  });
});
