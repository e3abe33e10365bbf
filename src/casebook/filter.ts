/**
 * Catalogue search and facet counts over cases; pure and fast enough for tens of
 * thousands of cases.
 */

import { LIBRARY_LABELS } from './library';
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
    status: []
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
  const compiled = Private.compile(query, statusOf);
  const counts: Record<CaseFacet, Map<string, number>> = {
    library: new Map(),
    crashType: new Map(),
    rootCause: new Map(),
    pipelineStage: new Map(),
    status: new Map()
  };
  let notebookSpecific = 0;
  for (const item of cases) {
    const failed = Private.failures(item, compiled);
    // Count a case in facet F when it fails at most F itself.
    if (failed === 0) {
      for (const facet of CASE_FACETS) {
        if (facet !== 'status' || statusOf) {
          bump(counts[facet], Private.valueOf(item, facet, statusOf));
        }
      }
    } else if ((failed & (failed - 1)) === 0) {
      const facet = Private.facetOfBit(failed);
      if (facet !== null) {
        bump(counts[facet], Private.valueOf(item, facet, statusOf));
      }
    }
    if (item.notebookSpecific && (failed & ~Private.NB_BIT) === 0) {
      notebookSpecific++;
    }
  }
  const result = {} as Record<CaseFacet, IFacetValue[]>;
  for (const facet of CASE_FACETS) {
    const selected = facet === 'status' ? (query.status ?? []) : query[facet];
    for (const value of selected) {
      if (!counts[facet].has(value) && (facet !== 'status' || statusOf)) {
        counts[facet].set(value, 0);
      }
    }
    result[facet] = [...counts[facet]]
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
  return { ...result, notebookSpecific };

  function bump(map: Map<string, number>, value: string): void {
    map.set(value, (map.get(value) ?? 0) + 1);
  }
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
   * Failure bits: one per facet, one for the text, one for the notebook switch.
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

  /**
   * A query prepared for repeated matching.
   */
  export interface ICompiled {
    terms: string[];
    selections: [CaseFacet, Set<string>][];
    notebookSpecificOnly: boolean;
    statusOf?: StatusOf;
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
