/**
 * The cohort report in the main area: the table and a bar chart per case,
 * built as DOM (text set as text, SVG through the DOM API, no HTML strings).
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import {
  COHORT_COLUMNS,
  cohortCells,
  cohortChartLayout
} from '../progress/cohort';
import type {
  CohortMeasure,
  ICohortCase,
  ICohortReport
} from '../progress/cohort';

/** The SVG namespace. */
const SVG = 'http://www.w3.org/2000/svg';

/**
 * Shows a cohort report: summary, table, one chart per case, files left out.
 */
export class CohortView extends Widget {
  /** Build the view of one report. */
  constructor(options: CohortView.IOptions) {
    super();
    this.addClass('jp-Junobench-cohort');
    const trans = options.trans;
    const report = options.report;
    const node = this.node;
    node.setAttribute('role', 'region');
    node.setAttribute('aria-label', trans.__('Cohort report'));

    const heading = document.createElement('h2');
    heading.textContent = trans.__('Cohort report: %1', options.folder || '/');
    const summary = document.createElement('p');
    summary.textContent = trans.__(
      '%1 learner(s), %2 case(s), %3 file(s) left out.',
      report.learners.length,
      report.cases.length,
      report.problems.length
    );
    node.append(heading, summary);

    const table = document.createElement('table');
    table.className = 'jp-Junobench-cohortTable';
    const head = table.createTHead().insertRow();
    for (const column of Private.columnTitles(trans)) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = column;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const row of report.cases) {
      const tr = body.insertRow();
      cohortCells(row).forEach((cell, i) => {
        const td = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) {
          (td as HTMLTableCellElement).scope = 'row';
        }
        td.textContent = cell;
        tr.appendChild(td);
      });
    }
    node.appendChild(table);

    const charts = document.createElement('div');
    charts.className = 'jp-Junobench-cohortCharts';
    for (const row of report.cases) {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = row.name;
      figure.append(caption, Private.chart(row, report, trans));
      charts.appendChild(figure);
    }
    node.appendChild(charts);

    if (report.problems.length) {
      const title = document.createElement('h3');
      title.textContent = trans.__('Files left out');
      const list = document.createElement('ul');
      list.className = 'jp-Junobench-cohortProblems';
      for (const p of report.problems) {
        const item = document.createElement('li');
        const code = document.createElement('code');
        code.textContent = p.file;
        item.append(code, document.createTextNode(`: ${p.reason}`));
        list.appendChild(item);
      }
      node.append(title, list);
    }
  }
}

/**
 * A namespace for CohortView statics.
 */
export namespace CohortView {
  /** Options to build the view. */
  export interface IOptions {
    /** The report to show. */
    report: ICohortReport;
    /** The server folder the files came from. */
    folder: string;
    /** The translation bundle. */
    trans: TranslationBundle;
  }
}

/** Private helpers of the cohort view. */
namespace Private {
  /** The translated column titles, in `COHORT_COLUMNS` order. */
  export function columnTitles(trans: TranslationBundle): string[] {
    return COHORT_COLUMNS.map(column => {
      switch (column) {
        case 'case':
          return trans.__('Case');
        case 'learners':
          return trans.__('Learners');
        case 'solved':
          return trans.__('Solved');
        case 'attempts':
          return trans.__('Attempts');
        case 'passes':
          return trans.__('Passes');
        case 'hints used':
          return trans.__('Hints used');
        case 'self-diagnosis':
          return trans.__('Self-diagnosis');
        case 'time (min)':
          return trans.__('Time (min)');
      }
    });
  }

  /** The translated name of a chart's measure. */
  export function measureTitle(
    measure: CohortMeasure,
    trans: TranslationBundle
  ): string {
    switch (measure) {
      case 'solved':
        return trans.__('solved');
      case 'attempts':
        return trans.__('attempts');
      case 'passes':
        return trans.__('passes');
      case 'hints used':
        return trans.__('hints used');
      case 'self-diagnosis':
        return trans.__('self-diagnosis');
    }
  }

  /** One case's horizontal bar chart as an SVG element. */
  export function chart(
    row: ICohortCase,
    report: ICohortReport,
    trans: TranslationBundle
  ): SVGSVGElement {
    const layout = cohortChartLayout(row, report);
    const { width, height, barX, barHeight } = layout;
    const bars = layout.rows.map(r => r.bar);
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'jp-Junobench-cohortChart');
    svg.setAttribute('role', 'img');
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute(
      'aria-label',
      trans.__('Cohort chart for %1', row.name) +
        ': ' +
        bars.map(b => `${measureTitle(b.measure, trans)} ${b.text}`).join(', ')
    );
    const add = (tag: string, attrs: Record<string, string>, text?: string) => {
      const el = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attrs)) {
        el.setAttribute(key, value);
      }
      if (text !== undefined) {
        el.textContent = text;
      }
      svg.appendChild(el);
    };
    layout.rows.forEach(({ bar, y, baseline, length }, i) => {
      add(
        'text',
        {
          class: 'jp-Junobench-cohortLabel',
          x: String(layout.labelX),
          y: String(baseline),
          'text-anchor': 'end'
        },
        measureTitle(bar.measure, trans)
      );
      add('rect', {
        class: 'jp-Junobench-cohortTrack',
        x: String(barX),
        y: String(y),
        width: String(layout.trackWidth),
        height: String(barHeight)
      });
      add('rect', {
        class: `jp-Junobench-cohortBar jp-Junobench-cohortBar-${i}`,
        x: String(barX),
        y: String(y),
        width: String(length),
        height: String(barHeight)
      });
      add(
        'text',
        {
          class: 'jp-Junobench-cohortValue',
          x: String(layout.valueX),
          y: String(baseline)
        },
        bar.text
      );
    });
    return svg;
  }
}
