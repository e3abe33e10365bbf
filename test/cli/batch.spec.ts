/**
 * Batch grading, `junobench check <casebook> --submissions DIR`: the pure
 * helpers (finding submissions, adding up, the text and HTML reports) without
 * a server, then the command against a real Jupyter server on a folder built
 * from the check corpus.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import {
  batchHTML,
  findSubmissions,
  formatBatchSummary,
  isBatchCheck,
  progressLine,
  summarizeBatch
} from '../../src/cli/batch';
import type {
  IBatchReport,
  IBatchResult,
  IBatchSummary
} from '../../src/cli/batch';
import type { ICheckReport } from '../../src/cli/check';
import { sharedServer } from '../sharedServer';
import type { IServerHandle } from '../../src/cli/server';
import { cellRef } from '../../src/i18n';

import { runCli, serverArgs } from './capture';

jest.setTimeout(180000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');
const CORPUS = path.resolve(__dirname, '../check-corpus');

/** A check report with only what a test cares about set. */
function report(
  over: Partial<ICheckReport> & Pick<ICheckReport, 'status'>
): ICheckReport {
  return {
    case: 'numpy_1',
    notebook: 'numpy_1/x.ipynb',
    passed: over.status === 'solved',
    grade: over.status === 'solved' ? 'solved' : 'not-solved',
    noted: false,
    kernel: 'python3',
    environment: 'server',
    image: null,
    environmentChoice: null,
    headline: `headline of ${over.status}`,
    reasons: [],
    findings: [],
    evidence: null,
    guard: [],
    live: 'ok',
    plannedCells: 3,
    run: null,
    durationMs: 4200,
    ...over
  };
}

/** A graded result. */
function graded(
  caseName: string,
  file: string,
  r: Partial<ICheckReport> & Pick<ICheckReport, 'status'>
): IBatchResult {
  return {
    case: caseName,
    file,
    report: report({ case: caseName, notebook: file, ...r }),
    error: null
  };
}

/** A result that could not be graded. */
function notGraded(
  caseName: string | null,
  file: string,
  error: string
): IBatchResult {
  return { case: caseName, file, report: null, error };
}

/** A batch report around results. */
function batch(results: IBatchResult[], summary?: IBatchSummary): IBatchReport {
  return {
    casebook: 'demo',
    submissionsDir: '/tmp/subs',
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 12345,
    summary: summary ?? summarizeBatch(results),
    results
  };
}

const CELL = cellRef(4, 3);

describe('batch grading helpers', () => {
  it.each([
    {
      title: 'nothing',
      results: [],
      folders: [],
      totals: [0, 0, 0, 0, 0],
      rows: [],
      statuses: {},
      failing: {},
      findings: {}
    },
    {
      title: 'a pass, two kinds of failure and bad input',
      results: [
        graded('numpy_1', 'numpy_1/a.ipynb', {
          status: 'solved',
          findings: [{ code: 'fresh-clean', count: 3 }]
        }),
        graded('numpy_1', 'numpy_1/b.ipynb', {
          status: 'hidden-crash',
          findings: [
            {
              code: 'swallowed',
              cell: CELL,
              line: 2,
              ename: 'ValueError',
              evalue: 'x'
            },
            // Counted once per submission, and what went right not at all.
            {
              code: 'swallowed',
              cell: CELL,
              line: 3,
              ename: 'ValueError',
              evalue: 'y'
            },
            { code: 'fresh-clean', count: 3 },
            { code: 'live', result: 'ok' }
          ]
        }),
        graded('pandas_2', 'pandas_2/c.ipynb', {
          status: 'different-effect',
          findings: [
            { code: 'effect-missing', name: 'Z', expected: 'an array' },
            { code: 'same-effect', names: 'mu' }
          ]
        }),
        graded('pandas_2', 'pandas_2/d.ipynb', {
          status: 'hidden-crash',
          findings: [{ code: 'target-commented-out', cell: CELL }]
        }),
        notGraded('numpy_1', 'numpy_1/e.ipynb', 'is not valid JSON'),
        notGraded('nosuch', 'nosuch/f.ipynb', 'no case "nosuch" in demo'),
        notGraded(null, 'README.txt', 'not in a case folder')
      ],
      folders: [
        { case: 'sklearn_1', known: true },
        { case: 'numpy_1', known: true },
        { case: 'pandas_2', known: true },
        { case: 'nosuch', known: false },
        { case: null, known: false }
      ],
      totals: [7, 4, 1, 3, 3],
      rows: [
        ['sklearn_1', true, 0, 0, 0, 0],
        ['numpy_1', true, 2, 1, 1, 1],
        ['pandas_2', true, 2, 0, 2, 0],
        ['nosuch', false, 0, 0, 0, 1],
        [null, false, 0, 0, 0, 1]
      ],
      statuses: { 'hidden-crash': 2, 'different-effect': 1, solved: 1 },
      failing: { 'hidden-crash': 2, 'different-effect': 1 },
      findings: {
        'effect-missing': 1,
        swallowed: 1,
        'target-commented-out': 1
      }
    },
    {
      title: 'a case met only in the results',
      results: [graded('numpy_2', 'numpy_2/a.ipynb', { status: 'solved' })],
      folders: [],
      totals: [1, 1, 1, 0, 0],
      rows: [['numpy_2', true, 1, 1, 0, 0]],
      statuses: { solved: 1 },
      failing: {},
      findings: {}
    }
  ])(
    'adds up $title',
    ({ results, folders, totals, rows, statuses, failing, findings }) => {
      const s = summarizeBatch(results, folders);
      expect([
        s.submissions,
        s.graded,
        s.passed,
        s.failed,
        s.notGraded
      ]).toEqual(totals);
      expect(
        s.cases.map(r => [
          r.case,
          r.known,
          r.graded,
          r.passed,
          r.failed,
          r.notGraded
        ])
      ).toEqual(rows);
      // Most frequent first: the order is part of the answer.
      expect(Object.entries(s.statuses)).toEqual(Object.entries(statuses));
      expect(Object.entries(s.failures.statuses)).toEqual(
        Object.entries(failing)
      );
      expect(Object.entries(s.failures.findings)).toEqual(
        Object.entries(findings)
      );
    }
  );

  it.each([
    {
      title: 'a pass',
      result: graded('numpy_1', 'numpy_1/alice.ipynb', {
        status: 'solved',
        reasons: ['all good']
      }),
      lines: ['[3/12] numpy_1/alice.ipynb: PASS (solved) 4.2 s']
    },
    {
      title: 'a failure, with its first reason',
      result: graded('numpy_1', 'numpy_1/bob.ipynb', {
        status: 'hidden-crash',
        reasons: ['the crash is hidden', 'second reason']
      }),
      lines: [
        '[3/12] numpy_1/bob.ipynb: FAIL (hidden-crash) 4.2 s',
        '      the crash is hidden'
      ]
    },
    {
      title: 'bad input, control characters made visible',
      result: notGraded('numpy_1', 'numpy_1/\u001b[2Jx.ipynb', 'is empty'),
      lines: ['[3/12] numpy_1/\\u001b[2Jx.ipynb: NOT GRADED: is empty']
    }
  ])('prints progress for $title', ({ result, lines }) => {
    expect(progressLine(result, 3, 12).split('\n')).toEqual(lines);
  });

  const nasty = [
    graded('pandas_2', 'pandas_2/<b>&x.ipynb', {
      status: 'solved',
      headline: 'Solved "fine" & <good>'
    }),
    graded('numpy_1', 'numpy_1/o\'neil".ipynb', {
      status: 'hidden-crash',
      reasons: ['line `a < b && c` raised <ValueError>'],
      findings: [{ code: 'target-commented-out', cell: CELL }]
    }),
    notGraded('<script>', '<script>/alert(1).ipynb', 'no case "<script>"')
  ];

  it.each([
    ['pandas_2/&lt;b&gt;&amp;x.ipynb', 'pandas_2/<b>&x.ipynb'],
    ['Solved &quot;fine&quot; &amp; &lt;good&gt;', 'Solved "fine" & <good>'],
    ['numpy_1/o&#39;neil&quot;.ipynb', 'numpy_1/o\'neil".ipynb'],
    [
      'line `a &lt; b &amp;&amp; c` raised &lt;ValueError&gt;',
      'raised <ValueError>'
    ],
    ['&lt;script&gt;/alert(1).ipynb', '<script>'],
    ['no case &quot;&lt;script&gt;&quot;', 'no case "<script>"']
  ])('escapes %s in the HTML page', (escaped, raw) => {
    const html = batchHTML(batch(nasty));
    expect(html).toContain(escaped);
    expect(html).not.toContain(raw);
  });

  it('makes a self-contained HTML page for light and dark', () => {
    const html = batchHTML(batch(nasty));
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    expect(html).toContain('prefers-color-scheme: dark');
    expect(html).toContain("default-src 'none'");
    // One row per submission, with its verdict.
    const rows = html.match(/<tr class="(pass|fail|not-graded)">/g) ?? [];
    expect(rows).toEqual([
      '<tr class="pass">',
      '<tr class="fail">',
      '<tr class="not-graded">'
    ]);
    expect(html).toContain('FAIL (hidden-crash)');
    expect(html).toContain('<code>target-commented-out</code>');
  });

  it('prints the summary within 100 columns', () => {
    const long = 'a_case_with_a_very_long_name_indeed_that_goes_on_and_on';
    const results = [
      graded('numpy_1', 'numpy_1/a.ipynb', { status: 'solved' }),
      graded(long, `${long}/b.ipynb`, {
        status: 'different-effect',
        findings: [{ code: 'effect-missing', name: 'Z', expected: 'x' }]
      }),
      notGraded(
        'numpy_1',
        'numpy_1/broken.ipynb',
        `is not valid JSON (${'Unexpected token in JSON at some position '.repeat(5)})`
      )
    ];
    const text = formatBatchSummary(batch(results), 2);
    const lines = text.split('\n');
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(100);
    }
    expect(lines[0]).toMatch(/^case\s+graded\s+passed\s+failed\s+not graded$/);
    expect(lines).toContain(
      `${'numpy_1'.padEnd(40)}       1       1       0           1`
    );
    expect(text).toMatch(/Failing verdicts:\n {2}different-effect:\s+1\n/);
    expect(text).toMatch(
      /Findings in failing submissions:\n {2}effect-missing:\s+1\n/
    );
    expect(text).toMatch(
      /Not graded:\n {2}numpy_1\/broken\.ipynb: is not valid/
    );
    expect(lines.slice(-2)).toEqual([
      'Graded 2 of 3 submission(s) in 12.3 s with 2 job(s).',
      '1 passed, 1 failed, 1 not graded'
    ]);
  });

  it.each([
    [['demo', '--submissions', 'x'], true],
    [['demo', '--submissions=x'], true],
    [['demo', 'numpy_1', 'a.ipynb', '--json'], false],
    [['demo', '--', '--submissions'], false]
  ])('tells the batch form from %j', (args, expected) => {
    expect(isBatchCheck(args)).toBe(expected);
  });

  it('finds submissions in table order and names what is wrong', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'junobench-find-'));
    try {
      const touch = (rel: string, text = '{}') => {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), text);
      };
      touch('pandas_2/b.ipynb');
      touch('numpy_1/s10.ipynb');
      touch('numpy_1/s2.IPYNB');
      touch('numpy_1/notes.md');
      touch('numpy_1/.ipynb_checkpoints/s2-checkpoint.ipynb');
      touch('numpy_1/extra/deep.ipynb');
      touch('zzz/a.ipynb');
      touch('README.txt');
      touch('.DS_Store');
      const known = ['numpy_1', 'pandas_2'];
      const all = findSubmissions(dir, known, null, 'demo');
      expect(all.entries.map(e => [e.file, e.problem])).toEqual([
        ['numpy_1/extra/', expect.stringMatching(/folder inside a case/)],
        ['numpy_1/notes.md', 'not a notebook (.ipynb)'],
        ['numpy_1/s2.IPYNB', null],
        ['numpy_1/s10.ipynb', null],
        ['pandas_2/b.ipynb', null],
        ['zzz/a.ipynb', 'no case "zzz" in demo'],
        ['README.txt', expect.stringMatching(/not in a case folder/)]
      ]);
      expect(all.folders).toEqual([
        { case: 'numpy_1', known: true },
        { case: 'pandas_2', known: true },
        { case: 'zzz', known: false },
        { case: null, known: false }
      ]);
      const some = findSubmissions(dir, known, ['pandas_2'], 'demo');
      expect(some.entries.map(e => e.file)).toEqual(['pandas_2/b.ipynb']);
      expect(some.folders).toEqual([{ case: 'pandas_2', known: true }]);
      expect(() =>
        findSubmissions(path.join(dir, 'none'), known, null, 'demo')
      ).toThrow(/cannot read the submissions folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('junobench check --submissions', () => {
  let server: IServerHandle;
  let tmp: string;
  let subs: string;

  beforeAll(async () => {
    // The shared server's root stands for the folder above the casebook, as
    // in check.spec.ts.
    server = sharedServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'junobench-batch-'));
    subs = path.join(tmp, 'subs');
    const put = (rel: string, from?: string, text?: string) => {
      const file = path.join(subs, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      if (from) {
        copyFileSync(path.join(CORPUS, from), file);
      } else {
        writeFileSync(file, text ?? '');
      }
    };
    put('numpy_1/alice.ipynb', 'numpy_1/fixed.ipynb');
    put('numpy_1/bob.ipynb', 'numpy_1/cheat-try.ipynb');
    put('numpy_1/broken.ipynb', undefined, '{"cells": [');
    put('pandas_2/<b>&x.ipynb', 'pandas_2/fixed.ipynb');
    put('nosuch_9/carol.ipynb', 'numpy_1/fixed.ipynb');
    put('README.txt', undefined, 'the submissions of the room');
    put('numpy_1/.ipynb_checkpoints/alice-checkpoint.ipynb', undefined, '');
  });

  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
  });

  const args = (...more: string[]) => [
    'check',
    DEMO,
    '--submissions',
    subs,
    ...more,
    ...serverArgs(server, ROOT)
  ];

  it('grades every notebook, names the bad input, and writes JSON and HTML', async () => {
    const jsonFile = path.join(tmp, 'report.json');
    const htmlFile = path.join(tmp, 'report.html');
    const { code, out, err } = await runCli(
      args('--jobs', '2', '--json', jsonFile, '--html', htmlFile, '--no-cache')
    );
    const text = out.join('\n');
    const progress = err.join('\n');
    expect(code).toBe(1);

    // The per-case table, the reasons and the totals on stdout.
    expect(text).toMatch(/^numpy_1\s+2\s+1\s+1\s+1$/m);
    expect(text).toMatch(/^pandas_2\s+1\s+1\s+0\s+0$/m);
    expect(text).toMatch(/^nosuch_9 \(no such case\)\s+0\s+0\s+0\s+1$/m);
    expect(text).toMatch(/^\(files in DIR\)\s+0\s+0\s+0\s+1$/m);
    expect(text).toMatch(/Failing verdicts:\n {2}hidden-crash:\s+1$/m);
    expect(text).toMatch(/^ {2}swallowed:\s+1$/m);
    expect(text).toMatch(/^ {2}numpy_1\/broken\.ipynb: is not valid JSON/m);
    expect(text).toMatch(/^ {2}nosuch_9\/carol\.ipynb: no case "nosuch_9"/m);
    expect(text).toMatch(/^ {2}README\.txt: not in a case folder/m);
    expect(text.split('\n').pop()).toBe('2 passed, 1 failed, 3 not graded');

    // Progress on stderr, one line per submission, bad input first.
    expect(progress).toMatch(
      /^\[1\/6\] numpy_1\/broken\.ipynb: NOT GRADED: is not valid JSON/m
    );
    expect(progress).toMatch(
      /^\[\d\/6\] numpy_1\/alice\.ipynb: PASS \(solved\) \d+\.\d s$/m
    );
    expect(progress).toMatch(
      /^\[\d\/6\] numpy_1\/bob\.ipynb: FAIL \(hidden-crash\) \d+\.\d s\n {6}In cell/m
    );
    expect(progress).toMatch(
      /^\[\d\/6\] pandas_2\/<b>&x\.ipynb: PASS \(solved\)/m
    );
    expect(progress).not.toMatch(/checkpoint/);

    // The JSON report.
    const json = JSON.parse(readFileSync(jsonFile, 'utf8')) as IBatchReport;
    expect(Object.keys(json).sort()).toEqual([
      'casebook',
      'durationMs',
      'results',
      'startedAt',
      'submissionsDir',
      'summary'
    ]);
    expect(json.submissionsDir).toBe(subs);
    expect(new Date(json.startedAt).getTime()).not.toBeNaN();
    expect(json.summary).toMatchObject({
      submissions: 6,
      graded: 3,
      passed: 2,
      failed: 1,
      notGraded: 3,
      statuses: { solved: 2, 'hidden-crash': 1 },
      failures: { statuses: { 'hidden-crash': 1 } }
    });
    expect(json.summary.failures.findings.swallowed).toBe(1);
    expect(
      json.results.map(r => [
        r.case,
        r.file,
        r.report?.status ?? null,
        r.error === null
      ])
    ).toEqual([
      ['numpy_1', 'numpy_1/alice.ipynb', 'solved', true],
      ['numpy_1', 'numpy_1/bob.ipynb', 'hidden-crash', true],
      ['numpy_1', 'numpy_1/broken.ipynb', null, false],
      ['pandas_2', 'pandas_2/<b>&x.ipynb', 'solved', true],
      ['nosuch_9', 'nosuch_9/carol.ipynb', null, false],
      [null, 'README.txt', null, false]
    ]);
    for (const r of json.results) {
      expect(Object.keys(r).sort()).toEqual([
        'case',
        'error',
        'file',
        'report'
      ]);
    }
    expect(json.results[1].report).toMatchObject({
      case: 'numpy_1',
      notebook: 'numpy_1/bob.ipynb',
      passed: false
    });
    // The reference fix ran once per case: the case's second check read it from the cache.
    const cached = json.results
      .filter(r => r.case === 'numpy_1' && r.report)
      .map(r => r.report?.evidence?.reference?.cached);
    expect(cached).toEqual([false, true]);

    // The HTML page, with the file name escaped.
    const html = readFileSync(htmlFile, 'utf8');
    expect(html).toContain('<code>pandas_2/&lt;b&gt;&amp;x.ipynb</code>');
    expect(html).not.toContain('<b>&x');
    expect(html).toContain('FAIL (hidden-crash)');
    expect(html.match(/<tr class="(pass|fail|not-graded)">/g)).toHaveLength(6);
  });

  it('exits 0 when every chosen submission passes (--cases)', async () => {
    const { code, out, err } = await runCli(
      args('--cases', 'pandas_2', '--no-cache')
    );
    expect(err.join('\n')).toMatch(
      /^\[1\/1\] pandas_2\/<b>&x\.ipynb: PASS \(solved\)/
    );
    const lines = out.join('\n').split('\n');
    expect(lines[0]).toMatch(/^case\s/);
    expect(lines[1]).toMatch(/^pandas_2\s+1\s+1\s+0\s+0$/);
    expect(lines[lines.length - 1]).toBe('1 passed, 0 failed, 0 not graded');
    expect(code).toBe(0);
  });

  it.each([
    {
      title: 'a <case> with --submissions',
      argv: () => ['check', DEMO, 'numpy_1', '--submissions', subs],
      message: /give only <casebook>, not numpy_1/
    },
    {
      title: 'a missing folder',
      argv: () => ['check', DEMO, '--submissions', path.join(tmp, 'none')],
      message: /--submissions .*none: no such folder/
    },
    {
      title: 'an empty folder',
      argv: () => {
        mkdirSync(path.join(tmp, 'empty'), { recursive: true });
        return ['check', DEMO, '--submissions', path.join(tmp, 'empty')];
      },
      message: /no submissions in .*empty: expected <case>\/<name>\.ipynb/
    },
    {
      title: 'an unknown --cases name',
      argv: () => ['check', DEMO, '--submissions', subs, '--cases', 'nope'],
      message: /no case "nope" in/
    },
    {
      title: 'a bad --jobs',
      argv: () => ['check', DEMO, '--submissions', subs, '--jobs', '0'],
      message: /--jobs must be a whole number/
    },
    {
      title: '--json without its file',
      argv: () => ['check', DEMO, '--submissions', subs, '--json'],
      // Here the next word is --server, which parseArgs will not take for a file name.
      message: /Option '--json'.* argument (is ambiguous|missing)/
    },
    {
      title: 'an --html file in a missing folder',
      argv: () => [
        'check',
        DEMO,
        '--submissions',
        subs,
        '--html',
        path.join(tmp, 'none', 'r.html')
      ],
      message: /--html .*r\.html: the folder .*none does not exist/
    },
    {
      title: '--jobs without --submissions',
      argv: () => [
        'check',
        DEMO,
        'numpy_1',
        path.join(CORPUS, 'numpy_1/fixed.ipynb'),
        '--jobs',
        '2'
      ],
      message: /--jobs goes only with --submissions DIR/
    }
  ])('exits 2 on $title', async ({ argv, message }) => {
    const { code, err } = await runCli([
      ...argv(),
      ...serverArgs(server, ROOT)
    ]);
    expect(err.join('\n')).toMatch(message);
    expect(code).toBe(2);
    expect(existsSync(path.join(tmp, 'none'))).toBe(false);
  });
});
