/**
 * The cohort report: learners' exported progress files (see `toJSON` in
 * ./export) added up per case, as a text table and as a self-contained HTML
 * page with an inline SVG bar chart per case. Pure: the caller reads the files.
 */
import type { IProgressExport } from './export';
import { fromJSON } from './export';

/** One learner's file, as read by the caller. */
export interface ICohortFile {
  /** The file name, used in problems and as the learner when the file names none. */
  readonly name: string;
  /** The file's text. */
  readonly text: string;
}

/** A file left out of the report, and why. */
export interface ICohortProblem {
  /** The file name. */
  readonly file: string;
  /** What is wrong with it. */
  readonly reason: string;
}

/** The cohort's numbers for one case. */
export interface ICohortCase {
  /** The case name. */
  readonly name: string;
  /** Learners whose file has a record of the case. */
  readonly learners: number;
  /** Learners who solved it. */
  readonly solved: number;
  /** Checks of a repair, all learners together. */
  readonly attempts: number;
  /** Checks that passed, all learners together. */
  readonly passes: number;
  /** Hint steps opened, all learners together. */
  readonly hintsUsed: number;
  /** Learners with a self-diagnosis score (their reveal was opened). */
  readonly diagnosed: number;
  /** Correct self-diagnosis answers, summed over the diagnosed learners. */
  readonly diagnosisCorrect: number;
  /** Self-diagnosis questions asked, summed over the diagnosed learners. */
  readonly diagnosisTotal: number;
  /** Time spent, all learners together, in milliseconds. */
  readonly timeSpentMs: number;
}

/** The cohort report. */
export interface ICohortReport {
  /** Learners counted (one per readable file). */
  readonly learners: readonly string[];
  /** The casebooks the counted files belong to. */
  readonly casebooks: readonly string[];
  /** The files left out, with the reason. */
  readonly problems: readonly ICohortProblem[];
  /** The numbers per case, in natural case-name order. */
  readonly cases: readonly ICohortCase[];
}

/**
 * Add up learners' progress files per case; a file that is not a readable
 * progress export is left out and named in `problems`, the others still count.
 */
export function cohortReport(files: readonly ICohortFile[]): ICohortReport {
  const problems: ICohortProblem[] = [];
  const exports: { file: string; data: IProgressExport }[] = [];
  for (const file of files) {
    try {
      exports.push({ file: file.name, data: fromJSON(file.text) });
    } catch (reason) {
      problems.push({
        file: file.name,
        reason: (reason as Error).message ?? String(reason)
      });
    }
  }
  const rows = new Map<string, Private.IMutableCase>();
  for (const { data } of exports) {
    for (const [name, progress] of Object.entries(data.cases)) {
      let row = rows.get(name);
      if (!row) {
        row = Private.emptyRow(name);
        rows.set(name, row);
      }
      row.learners += 1;
      row.solved += progress.status === 'solved' ? 1 : 0;
      row.attempts += progress.attempts.length;
      row.passes += progress.attempts.filter(a => a.passed).length;
      row.hintsUsed += progress.hints.length;
      if (progress.selfDiagnosis) {
        row.diagnosed += 1;
        row.diagnosisCorrect += progress.selfDiagnosis.correct;
        row.diagnosisTotal += progress.selfDiagnosis.total;
      }
      row.timeSpentMs += progress.timeSpentMs;
    }
  }
  return {
    learners: exports.map(({ file, data }) => data.learner ?? file),
    casebooks: [...new Set(exports.map(({ data }) => data.casebook))].sort(),
    problems,
    cases: [...rows.values()].sort((a, b) =>
      a.name.localeCompare(b.name, 'en', { numeric: true })
    )
  };
}

/** The self-diagnosis score of a case as a fraction (0 to 1), or null when nobody was scored. */
export function diagnosisScore(row: ICohortCase): number | null {
  return row.diagnosisTotal > 0
    ? row.diagnosisCorrect / row.diagnosisTotal
    : null;
}

/** The columns of the text table and the HTML table, in order. */
export const COHORT_COLUMNS = [
  'case',
  'learners',
  'solved',
  'attempts',
  'passes',
  'hints used',
  'self-diagnosis',
  'time (min)'
] as const;

/** The cells of one case's row, as text, in `COHORT_COLUMNS` order. */
export function cohortCells(row: ICohortCase): string[] {
  const score = diagnosisScore(row);
  return [
    row.name,
    String(row.learners),
    String(row.solved),
    String(row.attempts),
    String(row.passes),
    String(row.hintsUsed),
    score === null
      ? '-'
      : `${row.diagnosisCorrect}/${row.diagnosisTotal} (${Math.round(score * 100)}%)`,
    (row.timeSpentMs / 60_000).toFixed(1)
  ];
}

/**
 * The report as a plain-text table after a summary line, then (unless
 * `listProblems` is false) one line per file left out.
 */
export function cohortText(
  report: ICohortReport,
  options: { listProblems?: boolean } = {}
): string {
  const rows = [
    [...COHORT_COLUMNS] as string[],
    ...report.cases.map(cohortCells)
  ];
  const widths = COHORT_COLUMNS.map((_, i) =>
    Math.max(...rows.map(r => r[i].length))
  );
  const lines = [Private.summary(report), ''];
  rows.forEach((cells, r) => {
    lines.push(
      cells
        .map((cell, i) =>
          i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])
        )
        .join('  ')
        .trimEnd()
    );
    if (r === 0) {
      lines.push(widths.map(w => '-'.repeat(w)).join('  '));
    }
  });
  if (report.cases.length === 0) {
    lines.push('(no case progress in the files read)');
  }
  for (const p of options.listProblems === false ? [] : report.problems) {
    lines.push(`skipped ${p.file}: ${p.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The measures a case's chart shows, one bar each, in order. */
export type CohortMeasure =
  'solved' | 'attempts' | 'passes' | 'hints used' | 'self-diagnosis';

/** One bar of a case's chart. */
export interface ICohortBar {
  /** What the bar measures (also its English label). */
  readonly measure: CohortMeasure;
  /** The number measured. */
  readonly value: number;
  /** The number as shown beside the bar. */
  readonly text: string;
  /** The bar length, from 0 to 1. */
  readonly fraction: number;
}

/**
 * The bars of one case's chart: counts scaled to the largest case of the
 * cohort (passes to attempts), solved to the cohort size, the score to 100%.
 */
export function cohortBars(
  row: ICohortCase,
  report: ICohortReport
): ICohortBar[] {
  const max = (pick: (c: ICohortCase) => number) =>
    Math.max(1, ...report.cases.map(pick));
  const score = diagnosisScore(row);
  const learners = Math.max(1, report.learners.length);
  return [
    {
      measure: 'solved',
      value: row.solved,
      text: `${row.solved} of ${report.learners.length}`,
      fraction: row.solved / learners
    },
    {
      measure: 'attempts',
      value: row.attempts,
      text: String(row.attempts),
      fraction: row.attempts / max(c => c.attempts)
    },
    {
      measure: 'passes',
      value: row.passes,
      text: String(row.passes),
      fraction: row.passes / max(c => c.attempts)
    },
    {
      measure: 'hints used',
      value: row.hintsUsed,
      text: String(row.hintsUsed),
      fraction: row.hintsUsed / max(c => c.hintsUsed)
    },
    {
      measure: 'self-diagnosis',
      value: score ?? 0,
      text: score === null ? 'no score' : `${Math.round(score * 100)}%`,
      fraction: score ?? 0
    }
  ];
}

/** Where the parts of one case's bar chart go, in SVG user units. */
export interface ICohortChartLayout {
  /** The chart's width. */
  readonly width: number;
  /** The chart's height. */
  readonly height: number;
  /** The right edge of the labels (they are anchored at their end). */
  readonly labelX: number;
  /** The left edge of the tracks and bars. */
  readonly barX: number;
  /** The length of a full track. */
  readonly trackWidth: number;
  /** The height of a bar. */
  readonly barHeight: number;
  /** The left edge of the value texts. */
  readonly valueX: number;
  /** Each bar with its top, its text baseline and its length. */
  readonly rows: readonly {
    readonly bar: ICohortBar;
    readonly y: number;
    readonly baseline: number;
    readonly length: number;
  }[];
}

/** The layout of one case's horizontal bar chart, shared by the HTML page and the JupyterLab view. */
export function cohortChartLayout(
  row: ICohortCase,
  report: ICohortReport
): ICohortChartLayout {
  const bars = cohortBars(row, report);
  const barHeight = 18;
  const gap = 6;
  const labelWidth = 110;
  const trackWidth = 240;
  return {
    width: labelWidth + trackWidth + 90,
    height: bars.length * (barHeight + gap) + gap,
    labelX: labelWidth - 6,
    barX: labelWidth,
    trackWidth,
    barHeight,
    valueX: labelWidth + trackWidth + 6,
    rows: bars.map((bar, i) => {
      const y = gap + i * (barHeight + gap);
      return {
        bar,
        y,
        baseline: y + barHeight - 5,
        length: Math.round(Math.min(1, Math.max(0, bar.fraction)) * trackWidth)
      };
    })
  };
}

/** An inline SVG bar chart of one case (all text escaped). */
export function cohortChartSVG(
  row: ICohortCase,
  report: ICohortReport
): string {
  const layout = cohortChartLayout(row, report);
  const { width, height, barX, barHeight } = layout;
  const title = `Cohort chart for ${row.name}`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" aria-label="${escapeHTML(title)}">`,
    `<title>${escapeHTML(title)}</title>`
  ];
  layout.rows.forEach(({ bar, y, baseline, length }, i) => {
    parts.push(
      `<text class="label" x="${layout.labelX}" y="${baseline}" text-anchor="end">${escapeHTML(bar.measure)}</text>`,
      `<rect class="track" x="${barX}" y="${y}" width="${layout.trackWidth}" height="${barHeight}"/>`,
      `<rect class="bar bar-${i}" x="${barX}" y="${y}" width="${length}" height="${barHeight}"/>`,
      `<text class="value" x="${layout.valueX}" y="${baseline}">${escapeHTML(bar.text)}</text>`
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The report as a self-contained HTML page: no script, no external resource,
 * every text escaped; a table, then a bar chart per case.
 */
export function cohortHTML(
  report: ICohortReport,
  options: { title?: string; generatedAt?: Date | string } = {}
): string {
  const title = options.title ?? 'JunoBench cohort report';
  const when =
    options.generatedAt === undefined
      ? ''
      : typeof options.generatedAt === 'string'
        ? options.generatedAt
        : options.generatedAt.toISOString();
  const head = COHORT_COLUMNS.map(
    c => `<th scope="col">${escapeHTML(c)}</th>`
  ).join('');
  const body = report.cases
    .map(
      row =>
        `<tr>${cohortCells(row)
          .map((cell, i) =>
            i === 0
              ? `<th scope="row">${escapeHTML(cell)}</th>`
              : `<td>${escapeHTML(cell)}</td>`
          )
          .join('')}</tr>`
    )
    .join('\n');
  const charts = report.cases
    .map(
      row =>
        `<figure><figcaption>${escapeHTML(row.name)}</figcaption>${cohortChartSVG(row, report)}</figure>`
    )
    .join('\n');
  const problems = report.problems.length
    ? `<h2>Files left out</h2>\n<ul class="problems">${report.problems
        .map(
          p =>
            `<li><code>${escapeHTML(p.file)}</code>: ${escapeHTML(p.reason)}</li>`
        )
        .join('')}</ul>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHTML(title)}</title>
<style>${Private.STYLE}</style>
</head>
<body>
<h1>${escapeHTML(title)}</h1>
<p class="summary">${escapeHTML(Private.summary(report))}${when ? ` Generated ${escapeHTML(when)}.` : ''}</p>
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>
<h2>Per case</h2>
<div class="charts">
${charts}
</div>
${problems}
</body>
</html>
`;
}

/** Text made safe to put in HTML content or a quoted attribute. */
export function escapeHTML(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Private helpers of the cohort report. */
namespace Private {
  /** A case row while it is being added up. */
  export type IMutableCase = {
    -readonly [K in keyof ICohortCase]: ICohortCase[K];
  };

  /** A row with nothing counted yet. */
  export function emptyRow(name: string): IMutableCase {
    return {
      name,
      learners: 0,
      solved: 0,
      attempts: 0,
      passes: 0,
      hintsUsed: 0,
      diagnosed: 0,
      diagnosisCorrect: 0,
      diagnosisTotal: 0,
      timeSpentMs: 0
    };
  }

  /** The one-line summary: learners, casebooks, cases and files left out. */
  export function summary(report: ICohortReport): string {
    const learners = report.learners.length;
    const books = report.casebooks.length
      ? ` of casebook ${report.casebooks.join(', ')}`
      : '';
    const skipped = report.problems.length
      ? `; ${report.problems.length} file(s) left out`
      : '';
    const mixed =
      report.casebooks.length > 1
        ? ' (warning: the files come from different casebooks)'
        : '';
    return `${learners} learner(s)${books}, ${report.cases.length} case(s)${skipped}.${mixed}`;
  }

  /** The page's style: system colours, so it prints and reads in dark mode. */
  export const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2em; color: CanvasText; background: Canvas; }
table { border-collapse: collapse; }
th, td { border: 1px solid GrayText; padding: 0.25em 0.6em; }
td { text-align: right; }
thead th { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; }
figure { margin: 0; }
figcaption { font-weight: bold; margin-bottom: 0.25em; }
.chart text { font-size: 12px; fill: CanvasText; }
.chart .track { fill: none; stroke: GrayText; stroke-width: 0.5; }
.chart .bar { fill: #4c78a8; }
.chart .bar-1 { fill: #9d755d; }
.chart .bar-2 { fill: #54a24b; }
.chart .bar-3 { fill: #eeca3b; }
.chart .bar-4 { fill: #b279a2; }
.problems code { font-family: monospace; }
`;
}
