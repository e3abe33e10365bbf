import { toJSON } from '../../src/progress/export';
import {
  cohortBars,
  cohortChartSVG,
  cohortHTML,
  cohortReport,
  cohortText,
  diagnosisScore,
  escapeHTML
} from '../../src/progress/cohort';
import type { IAttempt, ICaseProgress } from '../../src/progress/types';
import { emptyProgress } from '../../src/progress/types';

const AT = '2026-01-01T10:00:00.000Z';

/** An attempt that passed or failed. */
function attempt(passed: boolean): IAttempt {
  return {
    at: AT,
    passed,
    status: passed ? 'fixed' : 'still-crashes',
    exception: passed ? null : 'NameError: x',
    snapshotPath: null
  };
}

/** A case's progress from a few numbers. */
function progress(
  fails: number,
  passes: number,
  hints: number,
  score: [number, number] | null,
  minutes = 0
): ICaseProgress {
  return {
    ...emptyProgress(),
    status: passes ? 'solved' : fails ? 'attempted' : 'crashed',
    attempts: [
      ...Array.from({ length: fails }, () => attempt(false)),
      ...Array.from({ length: passes }, () => attempt(true))
    ],
    hints: Array.from({ length: hints }, (_, i) => i),
    selfDiagnosis: score
      ? { correct: score[0], total: score[1], hinted: 0, answers: [] }
      : null,
    revealedAt: score ? AT : null,
    timeSpentMs: minutes * 60_000
  };
}

/** One learner's export file. */
function file(
  name: string,
  learner: string | null,
  cases: Record<string, ICaseProgress>,
  casebook = 'demo'
) {
  return {
    name,
    text: toJSON(cases, { casebook, exportedAt: AT, learner })
  };
}

const ada = file('ada.json', 'ada', {
  numpy_1: progress(2, 1, 1, [2, 3], 10),
  pandas_1: progress(1, 0, 2, null, 5)
});
const bob = file('bob.json', null, {
  numpy_1: progress(0, 1, 0, [3, 3], 4),
  NBspecific_10: progress(0, 0, 0, null),
  NBspecific_2: progress(3, 1, 4, [0, 3], 20)
});

describe('cohortReport', () => {
  it('adds up attempts, passes, hints, self-diagnosis and time per case', () => {
    const report = cohortReport([ada, bob]);
    expect(report.learners).toEqual(['ada', 'bob.json']);
    expect(report.casebooks).toEqual(['demo']);
    expect(report.problems).toEqual([]);
    // Natural order: NBspecific_2 before NBspecific_10.
    expect(report.cases.map(c => c.name)).toEqual([
      'NBspecific_2',
      'NBspecific_10',
      'numpy_1',
      'pandas_1'
    ]);
    const numpy = report.cases.find(c => c.name === 'numpy_1')!;
    expect(numpy).toEqual({
      name: 'numpy_1',
      learners: 2,
      solved: 2,
      attempts: 4,
      passes: 2,
      hintsUsed: 1,
      diagnosed: 2,
      diagnosisCorrect: 5,
      diagnosisTotal: 6,
      timeSpentMs: 14 * 60_000
    });
    expect(diagnosisScore(numpy)).toBeCloseTo(5 / 6);
    const pandas = report.cases.find(c => c.name === 'pandas_1')!;
    expect(pandas).toMatchObject({
      learners: 1,
      solved: 0,
      attempts: 1,
      passes: 0,
      hintsUsed: 2,
      diagnosed: 0
    });
    expect(diagnosisScore(pandas)).toBeNull();
  });

  it.each([
    ['not JSON', '{"format": ', /^\(file\): not valid JSON/],
    [
      'another JSON file',
      '{"title": "x"}',
      /^format: expected "jupyterlab-junobench-progress", got nothing; is this a progress export\?/
    ],
    [
      'a bad attempt',
      ada.text.replace('"passed": false', '"passed": "no"'),
      /^cases\["numpy_1"\]\.attempts\[0\]\.passed: expected true or false, got "no"/
    ]
  ])(
    'leaves out %s, naming the file and the reason, and counts the others',
    (_, text, reason) => {
      const report = cohortReport([ada, { name: 'broken.json', text }, bob]);
      expect(report.learners).toEqual(['ada', 'bob.json']);
      expect(report.problems).toHaveLength(1);
      expect(report.problems[0].file).toBe('broken.json');
      expect(report.problems[0].reason).toMatch(reason);
      expect(report.cases.find(c => c.name === 'numpy_1')?.learners).toBe(2);
    }
  );

  it('notes files from different casebooks', () => {
    const other = file(
      'cy.json',
      'cy',
      { numpy_1: progress(1, 0, 0, null) },
      'JunoBench'
    );
    const report = cohortReport([ada, other]);
    expect(report.casebooks).toEqual(['JunoBench', 'demo']);
    expect(cohortText(report)).toContain('different casebooks');
  });

  it('is empty, not an error, without files', () => {
    const report = cohortReport([]);
    expect(report).toEqual({
      learners: [],
      casebooks: [],
      problems: [],
      cases: []
    });
    expect(cohortText(report)).toContain(
      '(no case progress in the files read)'
    );
  });
});

describe('cohortText', () => {
  it('prints a summary, an aligned header and one row per case', () => {
    const text = cohortText(
      cohortReport([ada, bob, { name: 'x.json', text: '[]' }])
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      '2 learner(s) of casebook demo, 4 case(s); 1 file(s) left out.'
    );
    expect(lines[2]).toMatch(
      /^case\s+learners\s+solved\s+attempts\s+passes\s+hints used\s+self-diagnosis\s+time \(min\)$/
    );
    const numpy = lines.find(l => l.startsWith('numpy_1'))!;
    expect(numpy.split(/\s{2,}/)).toEqual([
      'numpy_1',
      '2',
      '2',
      '4',
      '2',
      '1',
      '5/6 (83%)',
      '14.0'
    ]);
    expect(lines[lines.length - 1]).toBe(
      'skipped x.json: (file): expected a JSON object'
    );
  });
});

describe('cohortHTML', () => {
  const hostile = file(
    '<img src=x onerror=alert(1)>.json',
    '<script>alert(1)</script>',
    {
      numpy_1: progress(1, 1, 1, [1, 3])
    }
  );
  const broken = { name: '<b>bad</b>.json', text: '<html>' };

  it('escapes every text and loads nothing from outside', () => {
    const html = cohortHTML(cohortReport([hostile, broken, ada]), {
      title: 'Week "1" <b>',
      generatedAt: AT
    });
    expect(html).not.toMatch(
      /<script|<img|<b>|onerror=alert\(1\)>|<iframe|<link|src=|href=/i
    );
    expect(html).toContain('&lt;b&gt;bad&lt;/b&gt;.json');
    expect(html).toContain('Week &quot;1&quot; &lt;b&gt;');
    expect(html).toContain("default-src 'none'");
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('has a table row and an SVG chart per case', () => {
    const report = cohortReport([ada, bob]);
    const html = cohortHTML(report);
    expect(html.match(/<tr><th scope="row">/g)).toHaveLength(4);
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).toContain(
      '<th scope="row">numpy_1</th><td>2</td><td>2</td><td>4</td><td>2</td><td>1</td><td>5/6 (83%)</td>'
    );
  });
});

describe('cohort charts', () => {
  const report = cohortReport([ada, bob]);

  it('scales counts to the largest case and the score to 100%', () => {
    const numpy = report.cases.find(c => c.name === 'numpy_1')!;
    const bars = Object.fromEntries(
      cohortBars(numpy, report).map(b => [b.measure, b])
    );
    expect(bars.solved).toMatchObject({
      value: 2,
      text: '2 of 2',
      fraction: 1
    });
    // NBspecific_2 has the most attempts (4), as many as numpy_1.
    expect(bars.attempts.fraction).toBe(1);
    expect(bars.passes.fraction).toBe(0.5);
    expect(bars['hints used'].fraction).toBe(1 / 4);
    expect(bars['self-diagnosis']).toMatchObject({ text: '83%' });
  });

  it('draws one labelled bar per measure, never wider than the track', () => {
    const svg = cohortChartSVG(report.cases[0], report);
    expect(svg.match(/<rect class="bar /g)).toHaveLength(5);
    const widths = [
      ...svg.matchAll(/class="bar [^"]*" x="\d+" y="\d+" width="(\d+)"/g)
    ].map(m => Number(m[1]));
    for (const w of widths) {
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThanOrEqual(240);
    }
    expect(svg).toContain('aria-label="Cohort chart for NBspecific_2"');
  });

  it.each([
    ['<a href="x">&</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'],
    ["it's", 'it&#39;s']
  ])('escapes %s', (text, expected) => {
    expect(escapeHTML(text)).toBe(expected);
  });
});
