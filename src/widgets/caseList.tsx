/**
 * The case list of the JunoBench side panel: one row per case (name,
 * library, status, what is wrong with it, Open, Details and, expanded, the
 * case card), at most a page of them, with a roving tab index and the arrow
 * keys between rows.
 *
 * Rows are keyed by case name and memoized on what they show (the case, its
 * status, whether it is expanded, ...): a keystroke in the search reorders
 * the rows it keeps, a status change renders that case's row only, and a
 * focused row stays the same element, so it keeps the focus.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import { displayEname } from '../casebook/display';
import { LIBRARY_LABELS } from '../casebook/library';
import { MARKER_DRAFT } from '../casebook/loader';
import { renderCaseMarker } from '../casebook/messages';
import { runnability } from '../casebook/runnable';
import type { ICase } from '../casebook/types';
import type { CaseStatus } from '../tokens';
import type { CasebookModel } from '../model/casebookModel';
import { CaseCard } from './caseCard';
import { listMove, tabbableRow } from '../model/panelLogic';

/** The selector of the rows of a case list (the empty-list line is not one). */
const ROW = 'li.jp-Junobench-caseItem';

/**
 * The list of the cases matching the query, the first `limit` of them.
 */
export function CaseList(props: CaseList.IProps): React.ReactElement {
  const { cases, limit, total, current, generation, actions, trans } = props;
  const shown = cases.length > limit ? cases.slice(0, limit) : cases;
  const tabbable = tabbableRow(
    shown.map(c => c.name),
    current
  );
  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>) => {
    const rows = [...event.currentTarget.querySelectorAll<HTMLElement>(ROW)];
    const row = (event.target as HTMLElement).closest<HTMLElement>(ROW);
    const move = listMove(event.key, row ? rows.indexOf(row) : -1, rows.length);
    if (move === null) {
      return;
    }
    event.preventDefault();
    if (move === 'search') {
      actions.focusSearch();
    } else {
      CaseList.focusRow(event.currentTarget, move);
    }
  };
  return (
    <ul
      className="jp-Junobench-caseList"
      aria-label={trans.__('Cases')}
      ref={props.listRef}
      onKeyDown={onKeyDown}
    >
      {shown.map(c => (
        <CaseRow
          key={c.name}
          c={c}
          tabbable={c.name === tabbable}
          generation={generation}
          actions={actions}
          {...props.rowState(c)}
        />
      ))}
      {cases.length === 0 && (
        <li className="jp-Junobench-empty">
          {total
            ? trans.__('No case matches the filters.')
            : trans.__('No cases.')}
        </li>
      )}
    </ul>
  );
}

/**
 * A namespace for CaseList statics.
 */
export namespace CaseList {
  /** What a row shows besides its case; each a value compared by identity. */
  export type IRowState = CasebookModel.IRowState;

  /** What the rows do; one object for the life of the list, so rows can be memoized. */
  export interface IActions {
    /** Open a case. */
    onOpen: (name: string) => void;
    /** Open or close a case's card. */
    onToggle: (name: string) => void;
    /** Fetch a case missing here, or null when the panel cannot. */
    onFetch: ((name: string) => void) | null;
    /** A row took the focus: it becomes the one in the tab order. */
    onCurrent: (name: string) => void;
    /** Read a case's README for its card. */
    onDescribe: (c: ICase) => void;
    /** Give the focus to the search box (Up from the first row). */
    focusSearch: () => void;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** Properties of the list. */
  export interface IProps {
    /** The cases matching the query, in order. */
    cases: readonly ICase[];
    /** How many of them to render. */
    limit: number;
    /** How many cases the casebook has (for the empty-list line). */
    total: number;
    /** The case whose row was focused last, or null. */
    current: string | null;
    /** Bumped to render every row again. */
    generation: number;
    /** What a row shows besides its case. */
    rowState: (c: ICase) => IRowState;
    /** What the rows do. */
    actions: IActions;
    /** The list element, for the keyboard outside it (Down from the search). */
    listRef?: React.Ref<HTMLUListElement>;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /**
   * Focus the row at a position of a list (and bring it into view); false
   * when there is no such row.
   */
  export function focusRow(list: HTMLElement, index: number): boolean {
    const row = list.querySelectorAll<HTMLElement>(ROW)[index];
    if (!row) {
      return false;
    }
    row.focus();
    row.scrollIntoView({ block: 'nearest' });
    return true;
  }

  /** A case's library, as the learner knows it. */
  export function libraryLabel(c: ICase): string {
    return (LIBRARY_LABELS as Record<string, string>)[c.library] ?? c.library;
  }

  /** A status, in words. */
  export function statusLabel(
    status: CaseStatus,
    trans: TranslationBundle
  ): string {
    switch (status) {
      case 'not-started':
        return trans.__('not started');
      case 'crashed':
        return trans.__('crashed');
      case 'attempted':
        return trans.__('attempted');
      case 'solved':
        return trans.__('solved');
    }
  }
}

/** Properties of a row: its case, its state and the list's actions. */
interface IRowProps extends CaseList.IRowState {
  /** The case. */
  c: ICase;
  /** Whether the row is the one in the tab order. */
  tabbable: boolean;
  /** The list's generation (bumped to render every row again). */
  generation: number;
  /** What the row does. */
  actions: CaseList.IActions;
}

/** A case's row, rendered again only when one of its properties changes. */
const CaseRow = React.memo(Row);

/**
 * One case's row: name, library, status, problems, Details, the error, Open,
 * why it cannot run and, expanded, its card.
 */
function Row(props: IRowProps): React.ReactElement {
  const { c, status, expanded, actions } = props;
  const { trans } = actions;
  const words = Private.words(trans);
  const library = CaseList.libraryLabel(c);
  const statusText = words.status[status];
  const { runnable, missing } = runnability(c);
  const blocking = missing.filter(m => m !== 'fixed');
  const canOpen = !!c.files.reproduced;
  const blockedId = `jp-junobench-blocked-${c.name}`;
  const cardId = `jp-junobench-card-${c.name}`;
  const ename = displayEname(c);
  const error = c.evalue ? `${ename}: ${c.evalue}` : ename;
  const reasons = blocking.map(m => CaseCard.missingText(m, trans)).join('; ');
  return (
    <li
      className="jp-Junobench-caseItem"
      data-case={c.name}
      data-status={status}
      tabIndex={props.tabbable ? 0 : -1}
      aria-label={trans.__('Case %1, %2, %3', c.name, library, statusText)}
      onFocus={() => actions.onCurrent(c.name)}
      onKeyDown={event => {
        // Enter on the row itself opens the case; on a button it is the button's.
        if (
          event.key === 'Enter' &&
          event.target === event.currentTarget &&
          canOpen
        ) {
          event.preventDefault();
          actions.onOpen(c.name);
        }
      }}
    >
      <div className="jp-Junobench-caseTop">
        <span className="jp-Junobench-caseName">{c.name}</span>
        <span className="jp-Junobench-caseLibrary">{library}</span>
        <span className={`jp-Junobench-badge jp-Junobench-badge-${status}`}>
          {statusText}
        </span>
        {c.problems.length > 0 && <Problem c={c} trans={trans} />}
        {/* In the name line, so a collapsed row is no taller. */}
        <button
          className="jp-Junobench-details"
          aria-expanded={expanded}
          aria-label={trans.__('Details of case %1', c.name)}
          aria-controls={cardId}
          onClick={() => actions.onToggle(c.name)}
        >
          {expanded ? words.hideDetails : words.details}
        </button>
      </div>
      <div className="jp-Junobench-caseError" title={error}>
        {error}
      </div>
      <button
        className="jp-Junobench-open jp-mod-styled jp-mod-accept"
        aria-label={trans.__('Open case %1', c.name)}
        aria-describedby={runnable ? undefined : blockedId}
        disabled={!canOpen}
        onClick={() => actions.onOpen(c.name)}
      >
        {words.open}
      </button>
      {!runnable && (
        // The reason is text in the row, not only a tooltip.
        <div className="jp-Junobench-caseBlocked" id={blockedId}>
          {canOpen
            ? trans.__('Not runnable here: %1', reasons)
            : trans.__('Cannot open here: %1', reasons)}
        </div>
      )}
      {expanded && (
        <CaseCard
          c={c}
          id={cardId}
          missing={missing}
          labels={{ open: props.labelsOpen, why: props.labelsWhy }}
          description={props.description}
          onDescribe={actions.onDescribe}
          fetchSource={props.fetchSource}
          fetch={props.fetch}
          onFetch={actions.onFetch}
          trans={trans}
        />
      )}
    </li>
  );
}

/** "incomplete" (or "draft") with what is wrong with the case. */
function Problem(props: {
  c: ICase;
  trans: TranslationBundle;
}): React.ReactElement {
  const { c, trans } = props;
  const markers = c.markers.map(m => renderCaseMarker(m, trans.__.bind(trans)));
  return (
    <span
      className="jp-Junobench-caseProblem"
      title={markers.join('\n')}
      aria-label={trans.__('Incomplete case: %1', markers.join('; '))}
    >
      {
        // A draft did not verify yet: say so rather than "incomplete".
        c.problems.includes(MARKER_DRAFT)
          ? trans.__('draft')
          : trans.__('incomplete')
      }
    </span>
  );
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** The words every row says, once per translation bundle. */
  export interface IWords {
    status: Record<CaseStatus, string>;
    details: string;
    hideDetails: string;
    open: string;
  }

  /** The words every row says, translated once (a page mounts hundreds of rows). */
  export function words(trans: TranslationBundle): IWords {
    let known = cache.get(trans);
    if (!known) {
      known = {
        status: {
          'not-started': CaseList.statusLabel('not-started', trans),
          crashed: CaseList.statusLabel('crashed', trans),
          attempted: CaseList.statusLabel('attempted', trans),
          solved: CaseList.statusLabel('solved', trans)
        },
        details: trans.__('Details'),
        hideDetails: trans.__('Hide details'),
        open: trans.__('Open')
      };
      cache.set(trans, known);
    }
    return known;
  }

  const cache = new WeakMap<TranslationBundle, IWords>();
}
