import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { toJSON } from '../../src/progress/export';
import type { ICaseProgress } from '../../src/progress/types';
import { emptyProgress } from '../../src/progress/types';

import { runCli } from './capture';

/** Run the CLI; what it printed to stdout (console and process.stdout) and to console.error. */
async function run(
  args: string[]
): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, err } = await runCli(args);
  return { code, out: stdout, err: err.join('\n') };
}

/** A case solved after `fails` failed checks, with `hints` hints and a score. */
function solved(fails: number, hints: number, correct: number): ICaseProgress {
  const attempts = [
    ...Array.from({ length: fails }, (_, i) => ({
      at: `2026-01-01T10:0${i}:00.000Z`,
      passed: false,
      status: 'still-crashes',
      exception: 'KeyError: "price"',
      snapshotPath: null
    })),
    {
      at: '2026-01-01T10:09:00.000Z',
      passed: true,
      status: 'fixed',
      exception: null,
      snapshotPath: null
    }
  ];
  return {
    ...emptyProgress(),
    status: 'solved',
    attempts,
    hints: Array.from({ length: hints }, (_, i) => i),
    selfDiagnosis: { correct, total: 3, hinted: 0, answers: [] },
    revealedAt: '2026-01-01T10:10:00.000Z',
    timeSpentMs: 6 * 60_000
  };
}

describe('junobench report', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-report-'));
    const learners: [string, Record<string, ICaseProgress>][] = [
      ['ada', { numpy_1: solved(0, 0, 3), pandas_1: solved(2, 1, 1) }],
      ['bob', { numpy_1: solved(1, 2, 2) }],
      ['cy', { pandas_1: solved(0, 3, 0) }]
    ];
    for (const [learner, cases] of learners) {
      fs.writeFileSync(
        path.join(dir, `junobench-progress-${learner}.json`),
        toJSON(cases, {
          casebook: 'demo',
          exportedAt: '2026-01-01T11:00:00.000Z',
          learner
        })
      );
    }
    // Broken: cut off in the middle, as after a failed upload.
    const good = fs.readFileSync(
      path.join(dir, 'junobench-progress-ada.json'),
      'utf8'
    );
    fs.writeFileSync(
      path.join(dir, 'junobench-progress-dan.json'),
      good.slice(0, 100)
    );
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a progress file');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints a table over the three good files and names the broken one', async () => {
    const { code, out, err } = await run(['report', dir]);
    expect(code).toBe(1);
    expect(out).toContain(
      '3 learner(s) of casebook demo, 2 case(s); 1 file(s) left out.'
    );
    const row = (name: string) =>
      out
        .split('\n')
        .find(l => l.startsWith(name))!
        .split(/\s{2,}/);
    expect(row('numpy_1')).toEqual([
      'numpy_1',
      '2',
      '2',
      '3',
      '2',
      '2',
      '5/6 (83%)',
      '12.0'
    ]);
    expect(row('pandas_1')).toEqual([
      'pandas_1',
      '2',
      '2',
      '4',
      '2',
      '4',
      '1/6 (17%)',
      '12.0'
    ]);
    expect(err).toMatch(
      /skipped junobench-progress-dan\.json: \(file\): not valid JSON/
    );
    expect(err).not.toContain('notes.txt');
  });

  it('prints JSON with --json', async () => {
    const { out } = await run(['report', dir, '--json']);
    const report = JSON.parse(out);
    expect(report.learners).toEqual(['ada', 'bob', 'cy']);
    expect(report.problems).toEqual([
      {
        file: 'junobench-progress-dan.json',
        reason: expect.stringMatching(/^\(file\): not valid JSON/)
      }
    ]);
    expect(report.cases.map((c: { name: string }) => c.name)).toEqual([
      'numpy_1',
      'pandas_1'
    ]);
  });

  it('writes a self-contained HTML page with --html', async () => {
    const html = path.join(dir, 'out', 'report.html');
    fs.mkdirSync(path.dirname(html), { recursive: true });
    const { code, out } = await run(['report', dir, '--html', html]);
    expect(code).toBe(1);
    expect(out).toContain(`HTML report written to ${html}`);
    const page = fs.readFileSync(html, 'utf8');
    expect(page.match(/<svg /g)).toHaveLength(2);
    expect(page).toContain('<th scope="row">numpy_1</th>');
    expect(page).toContain('junobench-progress-dan.json');
    expect(page).not.toMatch(/<script|src=|href=/);
  });

  it('exits 0 when every file is read', async () => {
    const clean = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-report-'));
    try {
      fs.copyFileSync(
        path.join(dir, 'junobench-progress-bob.json'),
        path.join(clean, 'bob.json')
      );
      const { code, err } = await run(['report', clean]);
      expect(code).toBe(0);
      expect(err).toBe('');
    } finally {
      fs.rmSync(clean, { recursive: true, force: true });
    }
  });

  it.each([
    [['report'], /expected one folder/],
    [['report', '/no/such/folder'], /cannot read the folder \/no\/such\/folder/]
  ])('fails with exit 2 on %j', async (args, message) => {
    const { code, err } = await run(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('exits 2 when no file is readable', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-report-'));
    try {
      const { code, err } = await run(['report', empty]);
      expect(code).toBe(2);
      expect(err).toContain('no readable progress export');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
