/**
 * The score report of one or more tools, side by side: a terminal table, the
 * JSON of `junobench score --json`, and a self-contained HTML page whose
 * charts (confusion matrices, per-label precision and recall, accuracy and
 * macro-F1 with their intervals) are Vega-Lite specifications drawn by the
 * Vega libraries whose text the caller inlines. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import { escapeHTML } from '../progress/cohort';
import {
  dimensionName,
  renderScoreMessage,
  SCORE_DIMENSIONS
} from './messages';
import type { ScoreDimension, ScoreWarning } from './messages';
import type { IBootstrapOptions } from './metrics';
import type { IRepairRate, IRepairScore } from './repairs';
import type { IDimensionScore, ILocalisationScore, IToolScore } from './score';

/** A tool's scores, with its repair rates when a batch report was given. */
export interface IToolReport extends IToolScore {
  /** The repair rates (absent without `--repairs`). */
  repairs?: IRepairScore;
}

/** The report of a scoring run. */
export interface IScoreReport {
  /** The casebook's name. */
  casebook: string;
  /** The cases of its ground truth. */
  cases: number;
  /** How the intervals were drawn. */
  bootstrap: IBootstrapOptions;
  /** The tools, in the order their files were given. */
  tools: IToolReport[];
}

/** The report as `--json` writes it: each warning with its English `message`. */
export function scoreJSON(report: IScoreReport): unknown {
  return {
    ...report,
    tools: report.tools.map(tool => ({
      ...tool,
      warnings: tool.warnings.map(w => ({
        ...w,
        message: renderScoreMessage(w)
      }))
    }))
  };
}

/**
 * The report as a terminal table: a row per measure, a column per tool; the
 * warnings are not in it (`renderScoreMessage` each).
 */
export function scoreText(
  report: IScoreReport,
  __: Translate = english
): string {
  const rows = Private.tableRows(report, __);
  const width = Math.max(
    24,
    ...report.tools.map(t => t.name.length + 2),
    ...rows.flatMap(r => r.cells.map(c => c.length + 2))
  );
  const head = Private.intervalNote(report, __);
  const lines = [
    head,
    '',
    `${''.padEnd(32)}${report.tools.map(t => t.name.padEnd(width)).join('')}`.trimEnd()
  ];
  let group = '';
  for (const row of rows) {
    const label = row.group === group ? '' : row.group;
    group = row.group;
    lines.push(
      `${label.padEnd(16)}${row.measure.padEnd(16)}${row.cells
        .map(c => c.padEnd(width))
        .join('')}`.trimEnd()
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The report as one self-contained HTML page: tables of the figures, and the
 * charts drawn by `scripts` (the text of vega, vega-lite and vega-embed, in
 * that order, inlined: the page loads nothing from the network).
 */
export function scoreHTML(
  report: IScoreReport,
  options: { scripts: readonly string[]; title?: string; generatedAt?: string }
): string {
  const title = options.title ?? `JunoBench score: ${report.casebook}`;
  const specs: Record<string, unknown> = {};
  const chart = (spec: unknown, caption: string): string => {
    const id = `chart-${Object.keys(specs).length}`;
    specs[id] = spec;
    return `<figure><figcaption>${escapeHTML(caption)}</figcaption><div id="${id}" class="chart"></div></figure>`;
  };
  const sections: string[] = [
    `<h2>Summary</h2>`,
    Private.summaryTable(report),
    chart(
      Private.summarySpec(report),
      'Accuracy and macro-F1 with their intervals'
    )
  ];
  for (const tool of report.tools) {
    sections.push(`<h2>${escapeHTML(tool.name)}</h2>`);
    sections.push(`<p>${escapeHTML(tool.file)}: ${tool.n} case(s).</p>`);
    for (const dimension of SCORE_DIMENSIONS) {
      const score = tool.dimensions[dimension];
      const name = dimensionName(dimension);
      sections.push(`<h3>${escapeHTML(name)}</h3><div class="pair">`);
      sections.push(
        chart(
          Private.confusionSpec(score),
          `${tool.name}: ${name}, confusion matrix`
        )
      );
      sections.push(
        chart(
          Private.perLabelSpec(score),
          `${tool.name}: ${name}, precision and recall per label`
        )
      );
      sections.push('</div>');
    }
    if (tool.repairs) {
      sections.push(Private.repairsTable(tool.repairs));
    }
    if (tool.warnings.length) {
      sections.push(
        `<h3>Left out or not understood</h3><ul class="warnings">${tool.warnings
          .map(w => `<li>${escapeHTML(renderScoreMessage(w))}</li>`)
          .join('')}</ul>`
      );
    }
  }
  const json = JSON.stringify(specs).replace(/</g, '\\u003c');
  const libraries = options.scripts
    .map(
      text => `<script>${text.replace(/<\/script/gi, '<\\/script')}</script>`
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHTML(title)}</title>
<style>${Private.STYLE}</style>
</head>
<body>
<h1>${escapeHTML(title)}</h1>
<p class="summary">${escapeHTML(Private.intervalNote(report, english))}${options.generatedAt ? ` Generated ${escapeHTML(options.generatedAt)}.` : ''}</p>
${sections.join('\n')}
<script type="application/json" id="junobench-specs">${json}</script>
${libraries}
<script>
for (const [id, spec] of Object.entries(JSON.parse(document.getElementById('junobench-specs').textContent))) {
  vegaEmbed('#' + id, spec, { actions: false, renderer: 'svg' }).catch(error => {
    document.getElementById(id).textContent = 'This chart could not be drawn: ' + error;
  });
}
</script>
</body>
</html>
`;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * One row of the terminal table.
   */
  export interface IRow {
    group: string;
    measure: string;
    cells: string[];
  }

  /**
   * A share as three decimals, '-' for none.
   */
  export function figure(value: number | null): string {
    return value === null ? '-' : value.toFixed(3);
  }

  /**
   * A share with its interval.
   */
  function withInterval(
    value: number | null,
    interval: [number, number] | null
  ): string {
    return interval === null
      ? figure(value)
      : `${figure(value)} [${figure(interval[0])}, ${figure(interval[1])}]`;
  }

  /**
   * A count over a total with its share.
   */
  function rate(r: {
    repaired: number;
    total: number;
    rate: number | null;
  }): string {
    return `${r.repaired}/${r.total} ${figure(r.rate)}`;
  }

  /**
   * A localisation score.
   */
  function located(score: ILocalisationScore): string {
    return score.n === 0
      ? '-'
      : `${score.correct}/${score.n} ${withInterval(score.accuracy, score.accuracyCI)}`;
  }

  /**
   * The sentence that states the cases and how the intervals were drawn.
   */
  export function intervalNote(report: IScoreReport, __: Translate): string {
    const b = report.bootstrap;
    return __(
      'Casebook %1: %2 case(s). Intervals: %3% percentile bootstrap over the cases, %4 resamples, seed %5.',
      report.casebook,
      report.cases,
      Math.round(b.confidence * 100),
      b.resamples,
      b.seed
    );
  }

  /**
   * The rows of the terminal table.
   */
  export function tableRows(report: IScoreReport, __: Translate): IRow[] {
    const rows: IRow[] = [];
    const tools = report.tools;
    for (const dimension of SCORE_DIMENSIONS) {
      const group = dimensionName(dimension, __);
      const d = (t: IToolReport): IDimensionScore => t.dimensions[dimension];
      rows.push({
        group,
        measure: __('accuracy'),
        cells: tools.map(t => withInterval(d(t).accuracy, d(t).accuracyCI))
      });
      rows.push({
        group,
        measure: __('macro-F1'),
        cells: tools.map(t => withInterval(d(t).macroF1, d(t).macroF1CI))
      });
    }
    rows.push({
      group: __('crashing cell'),
      measure: __('accuracy'),
      cells: tools.map(t => located(t.localisation.cell))
    });
    rows.push({
      group: __('crashing line'),
      measure: __('accuracy'),
      cells: tools.map(t => located(t.localisation.line))
    });
    if (tools.some(t => t.repairs)) {
      const repairRow = (
        measure: string,
        pick: (r: IRepairScore) => IRepairRate | undefined
      ): IRow => ({
        group: __('repair rate'),
        measure,
        cells: tools.map(t => {
          const r = t.repairs && pick(t.repairs);
          return r ? rate(r) : '-';
        })
      });
      rows.push(repairRow(__('all'), r => r.overall));
      rows.push(repairRow(__('NB specific'), r => r.notebookSpecific));
      for (const library of keysOf(tools, r => r.byLibrary)) {
        rows.push(repairRow(library, r => r.byLibrary[library]));
      }
      for (const cause of keysOf(tools, r => r.byRootCause)) {
        rows.push(repairRow(cause, r => r.byRootCause[cause]));
      }
    }
    return rows;
  }

  /**
   * The keys of a repair grouping over every tool, in first-seen order.
   */
  function keysOf(
    tools: readonly IToolReport[],
    pick: (r: IRepairScore) => Record<string, IRepairRate>
  ): string[] {
    return [
      ...new Set(
        tools.flatMap(t => (t.repairs ? Object.keys(pick(t.repairs)) : []))
      )
    ];
  }

  /**
   * The summary as an HTML table: the terminal table's rows.
   */
  export function summaryTable(report: IScoreReport): string {
    const head = ['', '', ...report.tools.map(t => t.name)]
      .map(c => `<th scope="col">${escapeHTML(c)}</th>`)
      .join('');
    const body = tableRows(report, english)
      .map(
        row =>
          `<tr><th scope="row">${escapeHTML(row.group)}</th><th scope="row">${escapeHTML(row.measure)}</th>${row.cells
            .map(c => `<td>${escapeHTML(c)}</td>`)
            .join('')}</tr>`
      )
      .join('\n');
    return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
  }

  /**
   * A tool's repair rates as an HTML table.
   */
  export function repairsTable(repairs: IRepairScore): string {
    const rows: [string, string, IRepairRate][] = [
      ['all', '', repairs.overall],
      ['notebook-specific', '', repairs.notebookSpecific],
      ...Object.entries(repairs.byLibrary).map(
        ([k, r]) => ['library', k, r] as [string, string, IRepairRate]
      ),
      ...Object.entries(repairs.byRootCause).map(
        ([k, r]) => ['root cause', k, r] as [string, string, IRepairRate]
      )
    ];
    return `<h3>Repair rate (${escapeHTML(repairs.file)})</h3>\n<table><thead><tr><th scope="col">group</th><th scope="col"></th><th scope="col">repaired</th><th scope="col">rate</th></tr></thead><tbody>${rows
      .map(
        ([group, key, r]) =>
          `<tr><th scope="row">${escapeHTML(group)}</th><td>${escapeHTML(key)}</td><td>${r.repaired}/${r.total}</td><td>${figure(r.rate)}</td></tr>`
      )
      .join('')}</tbody></table>`;
  }

  /**
   * Accuracy and macro-F1 of every tool and dimension, with interval rules.
   */
  export function summarySpec(report: IScoreReport): unknown {
    const values = report.tools.flatMap(tool =>
      SCORE_DIMENSIONS.flatMap((dimension: ScoreDimension) => {
        const d = tool.dimensions[dimension];
        return [
          ['accuracy', d.accuracy, d.accuracyCI],
          ['macro-F1', d.macroF1, d.macroF1CI]
        ].map(([measure, value, ci]) => ({
          tool: tool.name,
          dimension: dimensionName(dimension),
          measure,
          value,
          low: (ci as [number, number] | null)?.[0] ?? null,
          high: (ci as [number, number] | null)?.[1] ?? null
        }));
      })
    );
    const x = { field: 'dimension', type: 'nominal', title: null, sort: null };
    // The tools in the order their files were given, not alphabetical.
    const order = report.tools.map(t => t.name);
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      data: { values },
      facet: { column: { field: 'measure', type: 'nominal', title: null } },
      spec: {
        width: 320,
        height: 220,
        layer: [
          {
            mark: 'bar',
            encoding: {
              x,
              xOffset: { field: 'tool', sort: order },
              y: {
                field: 'value',
                type: 'quantitative',
                scale: { domain: [0, 1] },
                title: null
              },
              color: {
                field: 'tool',
                type: 'nominal',
                scale: { domain: order }
              },
              tooltip: [
                { field: 'tool' },
                { field: 'value', format: '.3f' },
                { field: 'low', format: '.3f' },
                { field: 'high', format: '.3f' }
              ]
            }
          },
          {
            mark: { type: 'rule', color: 'black' },
            encoding: {
              x,
              xOffset: { field: 'tool', sort: order },
              y: { field: 'low', type: 'quantitative' },
              y2: { field: 'high' }
            }
          }
        ]
      }
    };
  }

  /**
   * A confusion matrix as a heat map with its counts.
   */
  export function confusionSpec(score: IDimensionScore): unknown {
    const { actual, predicted, counts } = score.confusion;
    const most = Math.max(0, ...counts.flat());
    const values = actual.flatMap((a, i) =>
      predicted.map((p, j) => ({
        actual: a,
        predicted: p,
        count: counts[i][j]
      }))
    );
    const encoding = {
      x: {
        field: 'predicted',
        type: 'nominal',
        sort: predicted,
        axis: { labelAngle: -40, labelLimit: 160 }
      },
      y: {
        field: 'actual',
        type: 'nominal',
        sort: actual,
        axis: { labelLimit: 200 }
      }
    };
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      data: { values },
      encoding,
      layer: [
        {
          mark: 'rect',
          encoding: {
            color: {
              field: 'count',
              type: 'quantitative',
              scale: { scheme: 'blues' }
            },
            tooltip: [
              { field: 'actual' },
              { field: 'predicted' },
              { field: 'count' }
            ]
          }
        },
        {
          mark: 'text',
          encoding: {
            text: { field: 'count', type: 'quantitative' },
            // Light text on the dark half of the scale, grey for the zeros.
            color: {
              condition: [
                { test: 'datum.count === 0', value: '#999' },
                { test: `datum.count > ${most / 2}`, value: 'white' }
              ],
              value: 'black'
            }
          }
        }
      ],
      config: { view: { step: 22 } }
    };
  }

  /**
   * Precision and recall per label as grouped horizontal bars.
   */
  export function perLabelSpec(score: IDimensionScore): unknown {
    const values = Object.entries(score.perLabel).flatMap(([label, m]) => [
      { label, measure: 'precision', value: m.precision, support: m.support },
      { label, measure: 'recall', value: m.recall, support: m.support }
    ]);
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      data: { values },
      mark: 'bar',
      width: 260,
      encoding: {
        y: {
          field: 'label',
          type: 'nominal',
          sort: Object.keys(score.perLabel),
          axis: { labelLimit: 200 },
          title: null
        },
        yOffset: { field: 'measure' },
        x: {
          field: 'value',
          type: 'quantitative',
          scale: { domain: [0, 1] },
          title: null
        },
        color: { field: 'measure', type: 'nominal', title: null },
        tooltip: [
          { field: 'label' },
          { field: 'measure' },
          { field: 'value', format: '.3f' },
          { field: 'support' }
        ]
      },
      config: { view: { step: 10 } }
    };
  }

  /**
   * The page's style sheet.
   */
  export const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; font-variant-numeric: tabular-nums; }
thead th { background: #f3f3f3; }
figure { margin: 1rem 1rem 1rem 0; }
figcaption { font-weight: 600; margin-bottom: 0.5rem; }
.pair { display: flex; flex-wrap: wrap; align-items: flex-start; }
.warnings li { margin: 0.2rem 0; }
`;
}

/** The warnings of a report, each with its tool's name, for the command line. */
export function reportWarnings(
  report: IScoreReport
): { tool: string; warning: ScoreWarning }[] {
  return report.tools.flatMap(t =>
    t.warnings.map(warning => ({ tool: t.name, warning }))
  );
}
