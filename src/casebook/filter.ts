/**
 * Catalogue search and facet counts over cases; pure and fast enough for tens of
 * thousands of cases.
 */

import { LIBRARY_LABELS } from './library';
import { runnability } from './runnable';
import type { ICase } from './types';

/** What the catalogue is asked for: free text plus selected facet values. */
export interface ICaseQuery {
  /** Whitespace-separated terms; every term must occur (case-insensitive). */
  text: string;
  /** Selected libraries (any of them); empty for all. */
  library: string[];
  /** Selected crash types (`label_refined_exp_type`); empty for all. */
  crashType: string[];
  /** Selected root causes; empty for all. */
  rootCause: string[];
  /** Selected ML pipeline stages; empty for all. */
  pipelineStage: string[];
  /** Only notebook-specific cases. */
  notebookSpecificOnly: boolean;
  /** Selected statuses (as `statusOf` reports them); empty or absent for all. */
  status?: string[];
  /** Only cases that can run here (see `runnability`). */
  runnableOnly?: boolean;
}

/** The facets a query can select values of. */
export type CaseFacet =
  'library' | 'crashType' | 'rootCause' | 'pipelineStage' | 'status';

/** The facets, in display order. */
export const CASE_FACETS: readonly CaseFacet[] = [
  'library',
  'crashType',
  'rootCause',
  'pipelineStage',
  'status'
];

/** One value of a facet and how many cases it would show. */
export interface IFacetValue {
  /** The value ('' for cases without one). */
  value: string;
  /** Cases with this value among those matching the rest of the query. */
  count: number;
}

/** Facet counts for a query: each facet counted over the cases that match all other parts of it. */
export interface ICaseFacets {
  /** Library values. */
  library: IFacetValue[];
  /** Crash type values. */
  crashType: IFacetValue[];
  /** Root cause values. */
  rootCause: IFacetValue[];
  /** Pipeline stage values. */
  pipelineStage: IFacetValue[];
  /** Status values (empty without a `statusOf` callback). */
  status: IFacetValue[];
  /** Notebook-specific cases among those matching everything but that switch. */
  notebookSpecific: number;
  /** Cases runnable here among those matching everything but that switch. */
  runnable: number;
}

/** The status of a case by name, e.g. `new`, `attempted`, `solved`. */
export type StatusOf = (name: string) => string;

/**
 * A query that selects every case.
 */
export function emptyQuery(): ICaseQuery {
  return {
    text: '',
    library: [],
    crashType: [],
    rootCause: [],
    pipelineStage: [],
    notebookSpecificOnly: false,
    status: [],
    runnableOnly: false
  };
}

/**
 * The cases matching a query, in their original order; the status selection is
 * ignored without `statusOf`.
 */
export function filterCases(
  cases: readonly ICase[],
  query: ICaseQuery,
  statusOf?: StatusOf
): ICase[] {
  const compiled = Private.compile(query, statusOf);
  return cases.filter(item => Private.failures(item, compiled) === 0);
}

/**
 * Facet values and counts for a query (standard faceted search: a facet's
 * counts ignore that facet's own selection), sorted by count then value;
 * selected values are always present, if need be with count 0.
 */
export function facetCounts(
  cases: readonly ICase[],
  query: ICaseQuery,
  statusOf?: StatusOf
): ICaseFacets {
  return Private.tally(cases, query, statusOf, null);
}

/** The cases matching a query and the facet counts for it. */
export interface ICaseResult {
  /** As `filterCases` gives them. */
  visible: ICase[];
  /** As `facetCounts` gives them. */
  facets: ICaseFacets;
}

/**
 * `filterCases` and `facetCounts` in one pass over the cases, for a view
 * that shows both after every keystroke.
 */
export function queryCases(
  cases: readonly ICase[],
  query: ICaseQuery,
  statusOf?: StatusOf
): ICaseResult {
  const visible: ICase[] = [];
  const facets = Private.tally(cases, query, statusOf, visible);
  return { visible, facets };
}

/**
 * The lower-case text a case is searched by: name, library and its label,
 * exception name and message, crash type, root cause and stage.
 */
export function searchText(item: ICase): string {
  let text = Private.HAYSTACK.get(item);
  if (text === undefined) {
    text = [
      item.name,
      item.library,
      LIBRARY_LABELS[item.library] ?? '',
      item.ename,
      item.evalue,
      item.crashType,
      item.rootCause,
      item.pipelineStage
    ]
      .join('\n')
      .toLowerCase();
    Private.HAYSTACK.set(item, text);
  }
  return text;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Search text per case object; cases are treated as immutable once loaded.
   */
  export const HAYSTACK = new WeakMap<ICase, string>();

  /**
   * Failure bits: one per facet, one for the text, one each for the
   * notebook-specific and runnable switches.
   */
  const FACET_BIT: Record<CaseFacet, number> = {
    library: 1,
    crashType: 2,
    rootCause: 4,
    pipelineStage: 8,
    status: 16
  };
  export const TEXT_BIT = 32;
  export const NB_BIT = 64;
  export const RUN_BIT = 128;

  /**
   * A query prepared for repeated matching.
   */
  export interface ICompiled {
    terms: string[];
    selections: [CaseFacet, Set<string>][];
    notebookSpecificOnly: boolean;
    runnableOnly: boolean;
    statusOf?: StatusOf;
  }

  /**
   * A casebook's cases prepared for repeated queries: each facet's values
   * numbered, per-case value numbers and search text in flat arrays.
   */
  interface IIndex {
    /** The cases indexed (the same objects, in order). */
    cases: readonly ICase[];
    text: string[];
    notebookSpecific: Uint8Array;
    runnable: Uint8Array;
    facets: Record<StaticFacet, { ids: Uint32Array; values: string[] }>;
  }

  /** The facets whose values are fixed with the casebook. */
  type StaticFacet = Exclude<CaseFacet, 'status'>;
  const STATIC_FACETS: readonly StaticFacet[] = [
    'library',
    'crashType',
    'rootCause',
    'pipelineStage'
  ];

  /** Indexes by case list; a list is treated as immutable once queried. */
  const INDEX = new WeakMap<readonly ICase[], IIndex>();

  /**
   * The index of a case list, built on first use (and again if the list
   * was changed after all).
   */
  function indexFor(cases: readonly ICase[]): IIndex {
    const known = INDEX.get(cases);
    const n = cases.length;
    if (
      known &&
      known.cases.length === n &&
      (n === 0 ||
        (known.cases[0] === cases[0] && known.cases[n - 1] === cases[n - 1]))
    ) {
      return known;
    }
    const facets = {} as IIndex['facets'];
    for (const facet of STATIC_FACETS) {
      facets[facet] = numberValues(n, i => valueOf(cases[i], facet));
    }
    const index: IIndex = {
      cases: [...cases],
      text: cases.map(searchText),
      notebookSpecific: Uint8Array.from(cases, c =>
        c.notebookSpecific ? 1 : 0
      ),
      runnable: Uint8Array.from(cases, c => (runnability(c).runnable ? 1 : 0)),
      facets
    };
    INDEX.set(cases, index);
    return index;
  }

  /**
   * Number the distinct values of a column in order of first appearance:
   * `ids[i]` is the number of row i's value in `values`.
   */
  function numberValues(
    n: number,
    valueAt: (i: number) => string
  ): { ids: Uint32Array; values: string[] } {
    const numbers = new Map<string, number>();
    const values: string[] = [];
    const ids = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const value = valueAt(i);
      let id = numbers.get(value);
      if (id === undefined) {
        id = values.length;
        numbers.set(value, id);
        values.push(value);
      }
      ids[i] = id;
    }
    return { ids, values };
  }

  /**
   * Facet counts for a query, pushing the matching cases onto `visible`
   * when given: one pass over the index with typed-array counters.
   */
  export function tally(
    cases: readonly ICase[],
    query: ICaseQuery,
    statusOf: StatusOf | undefined,
    visible: ICase[] | null
  ): ICaseFacets {
    const index = indexFor(cases);
    const n = cases.length;
    const terms = query.text.toLowerCase().split(/\s+/).filter(Boolean);
    // Per facet: value numbers, which are selected (null: no selection) and counters.
    const columns: {
      facet: CaseFacet;
      ids: Uint32Array;
      values: string[];
      selected: Uint8Array | null;
      counts: Uint32Array;
    }[] = [];
    for (const facet of STATIC_FACETS) {
      const { ids, values } = index.facets[facet];
      columns.push({
        facet,
        ids,
        values,
        selected: selection(values, query[facet]),
        counts: new Uint32Array(values.length)
      });
    }
    if (statusOf) {
      // Statuses change with progress, so they are numbered per query.
      const { ids, values } = numberValues(n, i => statusOf(cases[i].name));
      columns.push({
        facet: 'status',
        ids,
        values,
        selected: selection(values, query.status ?? []),
        counts: new Uint32Array(values.length)
      });
    }
    const nbOnly = query.notebookSpecificOnly;
    const runOnly = query.runnableOnly ?? false;
    let notebookSpecific = 0;
    let runnable = 0;
    for (let i = 0; i < n; i++) {
      let failed = 0;
      for (let f = 0; f < columns.length; f++) {
        const selected = columns[f].selected;
        if (selected !== null && selected[columns[f].ids[i]] === 0) {
          failed |= 1 << f;
        }
      }
      const nb = index.notebookSpecific[i] === 1;
      if (nbOnly && !nb) {
        failed |= NB_BIT;
      }
      const run = index.runnable[i] === 1;
      if (runOnly && !run) {
        failed |= RUN_BIT;
      }
      if (terms.length > 0) {
        const text = index.text[i];
        for (const term of terms) {
          if (!text.includes(term)) {
            failed |= TEXT_BIT;
            break;
          }
        }
      }
      // Count a case in facet F when it fails at most F itself.
      if (failed === 0) {
        visible?.push(cases[i]);
        for (let f = 0; f < columns.length; f++) {
          columns[f].counts[columns[f].ids[i]]++;
        }
      } else if ((failed & (failed - 1)) === 0 && failed < NB_BIT) {
        const f = 31 - Math.clz32(failed);
        if (f < columns.length) {
          columns[f].counts[columns[f].ids[i]]++;
        }
      }
      if (nb && (failed & ~NB_BIT) === 0) {
        notebookSpecific++;
      }
      if (run && (failed & ~RUN_BIT) === 0) {
        runnable++;
      }
    }
    const result: Record<CaseFacet, IFacetValue[]> = {
      library: [],
      crashType: [],
      rootCause: [],
      pipelineStage: [],
      status: []
    };
    for (const { facet, values, counts } of columns) {
      const entries = new Map<string, number>();
      for (let v = 0; v < values.length; v++) {
        if (counts[v] > 0) {
          entries.set(values[v], counts[v]);
        }
      }
      // Selected values are always listed, if need be with count 0.
      const selected = facet === 'status' ? (query.status ?? []) : query[facet];
      for (const value of selected) {
        if (!entries.has(value)) {
          entries.set(value, 0);
        }
      }
      result[facet] = [...entries]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) =>
          b.count !== a.count
            ? b.count - a.count
            : a.value < b.value
              ? -1
              : a.value > b.value
                ? 1
                : 0
        );
    }
    return { ...result, notebookSpecific, runnable };
  }

  /**
   * Which numbered values are selected; null when none is (no filter).
   */
  function selection(
    values: readonly string[],
    selected: readonly string[]
  ): Uint8Array | null {
    if (selected.length === 0) {
      return null;
    }
    const wanted = new Set(selected);
    return Uint8Array.from(values, value => (wanted.has(value) ? 1 : 0));
  }

  /**
   * Prepare a query.
   */
  export function compile(query: ICaseQuery, statusOf?: StatusOf): ICompiled {
    const selections: [CaseFacet, Set<string>][] = [];
    for (const facet of CASE_FACETS) {
      const selected =
        facet === 'status'
          ? statusOf
            ? (query.status ?? [])
            : []
          : query[facet];
      if (selected.length > 0) {
        selections.push([facet, new Set(selected)]);
      }
    }
    return {
      terms: query.text.toLowerCase().split(/\s+/).filter(Boolean),
      selections,
      notebookSpecificOnly: query.notebookSpecificOnly,
      runnableOnly: query.runnableOnly ?? false,
      statusOf
    };
  }

  /**
   * The bit set of query parts a case fails (0 when it matches).
   */
  export function failures(item: ICase, compiled: ICompiled): number {
    let failed = 0;
    for (const [facet, selected] of compiled.selections) {
      if (!selected.has(valueOf(item, facet, compiled.statusOf))) {
        failed |= FACET_BIT[facet];
      }
    }
    if (compiled.notebookSpecificOnly && !item.notebookSpecific) {
      failed |= NB_BIT;
    }
    if (compiled.runnableOnly && !runnability(item).runnable) {
      failed |= RUN_BIT;
    }
    if (compiled.terms.length > 0) {
      const text = searchText(item);
      if (!compiled.terms.every(term => text.includes(term))) {
        failed |= TEXT_BIT;
      }
    }
    return failed;
  }

  /**
   * A case's value for a facet.
   */
  export function valueOf(
    item: ICase,
    facet: CaseFacet,
    statusOf?: StatusOf
  ): string {
    switch (facet) {
      case 'library':
        return item.library;
      case 'crashType':
        return item.crashType;
      case 'rootCause':
        return item.rootCause;
      case 'pipelineStage':
        return item.pipelineStage;
      case 'status':
        return statusOf ? statusOf(item.name) : '';
    }
  }

  /**
   * The facet of a single failure bit, or null for the text and switch bits.
   */
  export function facetOfBit(bit: number): CaseFacet | null {
    for (const facet of CASE_FACETS) {
      if (FACET_BIT[facet] === bit) {
        return facet;
      }
    }
    return null;
  }
}
