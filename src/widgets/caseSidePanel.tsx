/**
 * The "JunoBench case" side panel: the story of the current working copy in
 * collapsible sections (verdict and reasons, why it crashed, order, hints,
 * diagnose it yourself, environment), following the current notebook as the
 * debugger's sidebar does. The head and the sections are declarative renders
 * of one model, the `CaseStory` (which follows the replay and check models);
 * a new result opens its section and is announced, and the notebook keeps
 * its room.
 *
 * Each fact once: the exception is said in "Why it crashed" only, and the
 * reasons refer to it ("the same error as the replay"); the environment's
 * differences are one line with the table on demand.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { SidePanel, VDomRenderer } from '@jupyterlab/ui-components';
import type { CommandRegistry } from '@lumino/commands';
import { Panel } from '@lumino/widgets';
import * as React from 'react';

import { cellName } from '../i18n';
import type { IDriftReport } from '../kernel/drift';
import type { IStoredStep } from '../model/workingCopy';
import { CASE_SECTIONS, CaseStory } from '../model/caseStory';
import type { CaseSection } from '../model/caseStory';
import { renderFinding } from '../repair/findings';
import { renderExplanationLine } from '../state/timeline';
import type { IWorkingCopy } from '../tokens';
import { DiagnosisForm } from './diagnosisForm';
import { environmentSummary } from './environmentLine';

/**
 * The case side panel: a head and the sections, each a render of one
 * `CaseStory`.
 */
export class CaseSidePanel extends SidePanel {
  /**
   * Build the panel over its story.
   */
  constructor(options: CaseSidePanel.IOptions) {
    // The sections take their natural height and the panel scrolls as one,
    // like a document (an accordion's split sizes squeeze long sections).
    super({ translator: options.translator, content: new Panel() });
    const { trans } = options;
    this.id = 'jp-junobench-case-panel';
    this.addClass('jp-Junobench-casePanel');
    this.title.caption = trans.__('JunoBench case');
    this.node.setAttribute('aria-label', trans.__('JunoBench case'));

    const head = new Private.Body(options, Private.Head);
    head.addClass('jp-Junobench-casePanelHead');
    this.header.addWidget(head);
    this.content.addWidget(new Private.Body(options, Private.Sections));
    this.content.addClass('jp-Junobench-caseSections');
    this.content.node.addEventListener('keydown', this._onKeyDown);
  }

  /** Focus the first section's title (the arrow keys move between titles). */
  focusSections(): void {
    this._titles()[0]?.focus();
  }

  /** Stop listening. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.content.node.removeEventListener('keydown', this._onKeyDown);
    super.dispose();
  }

  /** The section titles, in order. */
  private _titles(): HTMLButtonElement[] {
    return [
      ...this.content.node.querySelectorAll<HTMLButtonElement>(
        'button.jp-Junobench-sectionTitle'
      )
    ];
  }

  /** Up and Down move between the section titles, Home and End to the ends. */
  private _onKeyDown = (event: KeyboardEvent): void => {
    const titles = this._titles();
    const index = titles.indexOf(event.target as HTMLButtonElement);
    if (index < 0) {
      return;
    }
    let next: number;
    switch (event.key) {
      case 'ArrowDown':
        next = (index + 1) % titles.length;
        break;
      case 'ArrowUp':
        next = (index - 1 + titles.length) % titles.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = titles.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    titles[next].focus();
  };
}

/**
 * A namespace for CaseSidePanel statics.
 */
export namespace CaseSidePanel {
  /** Options to build the panel. */
  export interface IOptions {
    /** The story of the current working copy. */
    story: CaseStory;
    /** The application's commands (State view, next hint). */
    commands: CommandRegistry;
    /** The command ids the panel runs. */
    commandIds: { showState: string; nextHint: string };
    /** The translator (for the side panel's own strings). */
    translator?: SidePanel.IOptions['translator'];
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** A section's title. */
  export function sectionLabel(
    section: CaseSection,
    trans: TranslationBundle
  ): string {
    switch (section) {
      case 'verdict':
        return trans.__('Verdict and reasons');
      case 'why':
        return trans.__('Why it crashed');
      case 'order':
        return trans.__('Order');
      case 'hints':
        return trans.__('Hints');
      case 'diagnose':
        return trans.__('Diagnose it yourself');
      case 'environment':
        return trans.__('Environment');
    }
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** A render of the story by one of the components below. */
  export class Body extends VDomRenderer<CaseStory> {
    constructor(
      readonly options: CaseSidePanel.IOptions,
      readonly view: (props: CaseSidePanel.IOptions) => React.ReactElement
    ) {
      super(options.story);
    }

    protected render(): React.ReactElement {
      return <this.view {...this.options} />;
    }
  }

  /** The panel's head: the case's name and the announcement of new results. */
  export function Head(props: CaseSidePanel.IOptions): React.ReactElement {
    const { story, trans } = props;
    const copy = story.current;
    return (
      <>
        <h2 className="jp-Junobench-casePanelTitle">
          {copy ? trans.__('Case %1', copy.caseName) : trans.__('No case open')}
        </h2>
        {!copy && (
          <p className="jp-Junobench-casePanelEmpty">
            {trans.__(
              'Open a case from the JunoBench panel, or select the notebook of one: its verdict, why it crashed, the order of its cells, hints, your diagnosis and the environment show here.'
            )}
          </p>
        )}
        <div
          className="jp-Junobench-casePanelNews"
          role="status"
          aria-live="polite"
        >
          {story.announcement
            ? trans.__(
                'New in %1.',
                CaseSidePanel.sectionLabel(story.announcement, trans)
              )
            : ''}
        </div>
      </>
    );
  }

  /** Each section's title (a button that opens and closes it), then its content. */
  export function Sections(props: CaseSidePanel.IOptions): React.ReactElement {
    const { story, trans } = props;
    const copy = story.current;
    return (
      <>
        {CASE_SECTIONS.map(section => {
          const label = CaseSidePanel.sectionLabel(section, trans);
          const id = `jp-junobench-case-section-${section}`;
          const open = story.isExpanded(section);
          return (
            <React.Fragment key={section}>
              <h3 className="jp-Junobench-sectionHeading">
                <button
                  type="button"
                  className="jp-Junobench-sectionTitle"
                  data-section={section}
                  aria-controls={id}
                  aria-expanded={open}
                  onClick={() => story.toggle(section)}
                >
                  {label}
                </button>
              </h3>
              {/* A region of its own, so that its scrolling is reachable from the keyboard. */}
              <div
                className="jp-Junobench-caseSection"
                data-section={section}
                role="region"
                aria-label={label}
                id={id}
                hidden={!open}
              >
                {copy && <Section section={section} copy={copy} {...props} />}
              </div>
            </React.Fragment>
          );
        })}
      </>
    );
  }

  /** One section's content. */
  function Section(
    props: ISectionProps & { section: CaseSection }
  ): React.ReactElement | null {
    switch (props.section) {
      case 'verdict':
        return <Verdict {...props} />;
      case 'why':
        return <Why {...props} />;
      case 'order':
        return <Order {...props} />;
      case 'hints':
        return <Hints {...props} />;
      case 'environment':
        return <Environment {...props} />;
      case 'diagnose': {
        const diagnosis = props.story.diagnosis;
        return (
          diagnosis && <DiagnosisForm model={diagnosis} trans={props.trans} />
        );
      }
    }
  }

  /** What a section's component gets. */
  interface ISectionProps extends CaseSidePanel.IOptions {
    copy: IWorkingCopy;
  }

  /** The check's verdict and its reasons. */
  function Verdict(props: ISectionProps): JSX.Element {
    const { copy, trans } = props;
    const c = copy.check.state;
    const __ = trans.__.bind(trans);
    // The Environment section lists the differences once it has them.
    const drift = copy.replay.drift;
    const context = {
      shownError: CaseStory.crashError(copy),
      environmentShown:
        !!drift && (drift.differences.length > 0 || drift.python !== null)
    };
    const reasons = (c.verdict?.findings ?? []).map(f =>
      renderFinding(f, __, context)
    );
    return (
      <div className="jp-Junobench-verdictSection">
        <p
          className="jp-Junobench-checkHeadline"
          data-grade={c.verdict?.grade ?? ''}
          data-passed={c.verdict ? String(c.verdict.passed) : ''}
        >
          {c.message ||
            trans.__(
              'Not checked yet: repair the notebook, then press Check my fix.'
            )}
        </p>
        {reasons.length > 0 && (
          <ul
            className="jp-Junobench-checkReasons"
            aria-label={trans.__('Reasons')}
          >
            {reasons.map((reason, i) => (
              <li key={i}>{reason}</li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  /** Why the last run crashed: the exception once, then the state that led to it. */
  function Why(props: ISectionProps): JSX.Element {
    const { copy, trans, commands, commandIds } = props;
    const r = copy.replay.state;
    const __ = trans.__.bind(trans);
    const error = CaseStory.crashError(copy);
    const lines: string[] = [];
    if (error) {
      const raised = r.explanation?.lines.find(l => l.code === 'raised');
      lines.push(raised ? renderExplanationLine(raised, __) : r.message);
      for (const line of r.explanation?.lines ?? []) {
        if (line.code !== 'raised' && line.code !== 'no-crash') {
          lines.push(renderExplanationLine(line, __));
        }
      }
    }
    return (
      <div className="jp-Junobench-whySection">
        {lines.length ? (
          <ul
            className="jp-Junobench-why"
            data-kind={r.explanation?.kind ?? ''}
          >
            {lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        ) : (
          <p>
            {r.phase === 'finished'
              ? trans.__('The last run did not crash.')
              : trans.__('Replay the case to see why it crashed.')}
          </p>
        )}
        <button
          type="button"
          className="jp-Junobench-button jp-mod-styled"
          onClick={() =>
            void commands.execute(commandIds.showState, { id: copy.panel.id })
          }
        >
          {trans.__('Open the State view')}
        </button>
      </div>
    );
  }

  /** The recorded and top-to-bottom timelines, with the last run's step states. */
  function Order(props: ISectionProps): JSX.Element {
    const { copy, trans } = props;
    const r = copy.replay.state;
    const meta = copy.replay.meta;
    const orders = [
      {
        kind: 'recorded' as const,
        title: trans.__('Recorded order'),
        steps: r.kind === 'recorded' ? r.steps : (meta?.recordedPlan ?? [])
      },
      {
        kind: 'top-to-bottom' as const,
        title: trans.__('Top to bottom'),
        steps:
          r.kind === 'top-to-bottom' ? r.steps : (meta?.topToBottomPlan ?? [])
      }
    ];
    return (
      <div className="jp-Junobench-orderSection">
        {orders.map(order => (
          <Timeline
            key={order.kind}
            kind={order.kind}
            title={order.title}
            steps={order.steps}
            states={r.kind === order.kind ? r.stepStates : []}
            trans={trans}
          />
        ))}
      </div>
    );
  }

  /** One order's cells as numbered steps. */
  function Timeline(props: {
    kind: 'recorded' | 'top-to-bottom';
    title: string;
    steps: IStoredStep[];
    states: string[];
    trans: TranslationBundle;
  }): JSX.Element {
    const { kind, title, steps, states, trans } = props;
    let maxCell = -1;
    let outOfOrder = 0;
    const items = steps.map((step, i) => {
      const late = step.cell < maxCell;
      if (late) {
        outOfOrder++;
      }
      maxCell = Math.max(maxCell, step.cell);
      const classes = [
        'jp-Junobench-step',
        `jp-Junobench-step-${states[i] ?? 'pending'}`,
        late ? 'jp-mod-outOfOrder' : '',
        step.target ? 'jp-mod-target' : ''
      ].filter(Boolean);
      return (
        <li
          key={`${step.cellId}:${step.run}`}
          className={classes.join(' ')}
          title={trans.__(
            'Step %1: %2%3',
            i + 1,
            cellName(step.cell - 1, step.count, trans.__.bind(trans)),
            step.run === 2 ? trans.__(' (run again)') : ''
          )}
        >
          {step.run === 2 ? `${step.cell}↻` : String(step.cell)}
        </li>
      );
    });
    return (
      <section className="jp-Junobench-order" data-order={kind}>
        <h3>{title}</h3>
        <p className="jp-Junobench-timelineLegend">
          {kind === 'top-to-bottom'
            ? trans.__('Top to bottom: cells in document order.')
            : trans.__(
                'Recorded order: cell numbers in the order they ran; %1 ran after a cell below them.',
                outOfOrder
              )}
        </p>
        <ol
          className="jp-Junobench-timeline"
          aria-label={trans.__('%1 timeline', title)}
        >
          {items}
        </ol>
      </section>
    );
  }

  /** The hints opened so far, and the next one on demand. */
  function Hints(props: ISectionProps): JSX.Element {
    const { copy, trans, commands, commandIds } = props;
    const c = copy.check.state;
    return (
      <div className="jp-Junobench-hintsSection">
        {c.hints.length ? (
          <ol className="jp-Junobench-hints" aria-label={trans.__('Hints')}>
            {c.hints.map(hint => (
              <li key={hint.step} value={hint.step}>
                {`${hint.title}: ${hint.text}`}
              </li>
            ))}
          </ol>
        ) : (
          <p>{trans.__('No hint opened yet; each one is recorded.')}</p>
        )}
        <button
          type="button"
          className="jp-Junobench-button jp-mod-styled"
          disabled={c.hintsDone}
          onClick={() =>
            void commands.execute(commandIds.nextHint, { id: copy.panel.id })
          }
        >
          {c.hintsDone
            ? trans.__('Every hint is open')
            : trans.__('Open the next hint')}
        </button>
      </div>
    );
  }

  /** Where the kernel runs in one line, the differences in a table on demand. */
  function Environment(props: ISectionProps): JSX.Element {
    const { copy, trans } = props;
    const report = copy.replay.drift;
    const error = copy.replay.driftError;
    const [open, setOpen] = React.useState(false);
    if (!report) {
      return (
        <p
          className="jp-Junobench-drift"
          data-differences=""
          data-environment=""
        >
          {error
            ? trans.__('Environment: could not be checked (%1).', error)
            : trans.__(
                'Environment: not checked yet (the kernel is starting).'
              )}
        </p>
      );
    }
    const rows = Private.driftRows(report, trans);
    return (
      <div className="jp-Junobench-environmentSection">
        <p
          className="jp-Junobench-drift"
          role="note"
          aria-label={trans.__('Environment compared with the benchmark pins')}
          data-differences={String(report.differences.length)}
          data-environment={report.environment}
          title={trans.__('Kernel environment: %1', report.prefix)}
        >
          {environmentSummary(report, trans)}
        </p>
        {rows.length > 0 && (
          <button
            type="button"
            className="jp-Junobench-linkButton"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open
              ? trans.__('Hide the differences')
              : trans.__('Show the differences')}
          </button>
        )}
        {open && rows.length > 0 && (
          <table className="jp-Junobench-driftTable">
            <caption>
              {trans.__('What differs from the benchmark pins')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{trans.__('Library')}</th>
                <th scope="col">{trans.__('Here')}</th>
                <th scope="col">{trans.__('Benchmark')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(row => (
                <tr key={row.name}>
                  <th scope="row">{row.name}</th>
                  <td>{row.found}</td>
                  <td>{row.expected}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    );
  }

  /** The drift report's differences as table rows, Python first. */
  export function driftRows(
    report: IDriftReport,
    trans: TranslationBundle
  ): { name: string; found: string; expected: string }[] {
    const rows = report.python
      ? [
          {
            name: 'Python',
            found: report.python.found ?? trans.__('unknown'),
            expected: report.python.expected
          }
        ]
      : [];
    for (const d of report.differences) {
      rows.push({
        name: d.module,
        found:
          d.found === null
            ? trans.__('not installed')
            : d.substitute
              ? trans.__('%1 (local substitute)', d.found)
              : d.found,
        expected: d.expected
      });
    }
    return rows;
  }
}
