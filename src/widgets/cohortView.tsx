/**
 * The cohort report in the main area: the table and a bar chart per case,
 * a React render of one report (text rendered as text, no HTML strings).
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { ReactWidget } from '@jupyterlab/ui-components';
import * as React from 'react';

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

/**
 * Shows a cohort report: summary, table, one chart per case, files left out.
 */
export class CohortView extends ReactWidget {
  /** Build the view of one report. */
  constructor(readonly options: CohortView.IOptions) {
    super();
    this.addClass('jp-Junobench-cohort');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', options.trans.__('Cohort report'));
  }

  protected render(): React.ReactElement {
    const { report, folder, trans } = this.options;
    return (
      <>
        <h2>{trans.__('Cohort report: %1', folder || '/')}</h2>
        <p>
          {trans.__(
            '%1 learner(s), %2 case(s), %3 file(s) left out.',
            report.learners.length,
            report.cases.length,
            report.problems.length
          )}
        </p>
        <table className="jp-Junobench-cohortTable">
          <thead>
            <tr>
              {Private.columnTitles(trans).map(column => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.cases.map(row => (
              <tr key={row.name}>
                {cohortCells(row).map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={i}>{cell}</td>
                  )
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <div className="jp-Junobench-cohortCharts">
          {report.cases.map(row => (
            <figure key={row.name}>
              <figcaption>{row.name}</figcaption>
              <Private.Chart row={row} report={report} trans={trans} />
            </figure>
          ))}
        </div>
        {report.problems.length > 0 && (
          <>
            <h3>{trans.__('Files left out')}</h3>
            <ul className="jp-Junobench-cohortProblems">
              {report.problems.map((p, i) => (
                <li key={i}>
                  <code>{p.file}</code>
                  {`: ${p.reason}`}
                </li>
              ))}
            </ul>
          </>
        )}
      </>
    );
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

  /** One case's horizontal bar chart as an SVG image. */
  export function Chart(props: {
    row: ICohortCase;
    report: ICohortReport;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { row, report, trans } = props;
    const layout = cohortChartLayout(row, report);
    const { width, height, barX, barHeight } = layout;
    const bars = layout.rows.map(r => r.bar);
    return (
      <svg
        className="jp-Junobench-cohortChart"
        role="img"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        aria-label={
          trans.__('Cohort chart for %1', row.name) +
          ': ' +
          bars
            .map(b => `${measureTitle(b.measure, trans)} ${b.text}`)
            .join(', ')
        }
      >
        {layout.rows.map(({ bar, y, baseline, length }, i) => (
          <React.Fragment key={i}>
            <text
              className="jp-Junobench-cohortLabel"
              x={layout.labelX}
              y={baseline}
              textAnchor="end"
            >
              {measureTitle(bar.measure, trans)}
            </text>
            <rect
              className="jp-Junobench-cohortTrack"
              x={barX}
              y={y}
              width={layout.trackWidth}
              height={barHeight}
            />
            <rect
              className={`jp-Junobench-cohortBar jp-Junobench-cohortBar-${i}`}
              x={barX}
              y={y}
              width={length}
              height={barHeight}
            />
            <text
              className="jp-Junobench-cohortValue"
              x={layout.valueX}
              y={baseline}
            >
              {bar.text}
            </text>
          </React.Fragment>
        ))}
      </svg>
    );
  }
}
