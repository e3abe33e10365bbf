/**
 * The model behind the case list: the casebook, the query, the visible cases
 * and the facet counts. No DOM; views subscribe to `changed`.
 */
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { emptyQuery, queryCases } from '../casebook/filter';
import type { ICaseQuery } from '../casebook/filter';
import type { ICase, ICasebook } from '../casebook/types';
import type { CaseStatus } from '../progress/types';

/** The facets the panel offers, in display order. */
export const FACETS = [
  'library',
  'crashType',
  'rootCause',
  'pipelineStage'
] as const;

/** A facet key. */
export type FacetKey = (typeof FACETS)[number];

/** One value of a facet with its count. */
export interface IFacetValue {
  /** The value. */
  value: string;
  /** Cases that would match with this value ticked. */
  count: number;
  /** Whether it is ticked. */
  selected: boolean;
}

/**
 * Query state and derived results of the catalogue.
 */
export class CatalogueModel {
  /** Emitted when the casebook, the query or the statuses change. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** The casebook shown. */
  get casebook(): ICasebook | null {
    return this._casebook;
  }
  set casebook(value: ICasebook | null) {
    this._casebook = value;
    this._recompute();
  }

  /** The current query. */
  get query(): Readonly<ICaseQuery> {
    return this._query;
  }

  /** The cases matching the query, in casebook order. */
  get visible(): readonly ICase[] {
    return this._visible;
  }

  /** Cases runnable here among those matching the rest of the query. */
  get runnableCount(): number {
    return this._runnable;
  }

  /** Counts for each facet. */
  get facets(): Readonly<Record<FacetKey, IFacetValue[]>> {
    return this._facets;
  }

  /** Set the free-text search. */
  setText(text: string): void {
    if (text !== this._query.text) {
      this._query = { ...this._query, text };
      this._recompute();
    }
  }

  /** Tick or untick a facet value. */
  toggle(facet: FacetKey, value: string, on: boolean): void {
    const current = new Set(this._query[facet]);
    if (on) {
      current.add(value);
    } else {
      current.delete(value);
    }
    this._query = { ...this._query, [facet]: [...current] };
    this._recompute();
  }

  /** Show only notebook-specific cases, or all. */
  setNotebookSpecificOnly(on: boolean): void {
    this._query = { ...this._query, notebookSpecificOnly: on };
    this._recompute();
  }

  /** Show only the cases that can run here, or all. */
  setRunnableOnly(on: boolean): void {
    if (on !== (this._query.runnableOnly ?? false)) {
      this._query = { ...this._query, runnableOnly: on };
      this._recompute();
    }
  }

  /** Filter by learner status (empty: all). */
  setStatus(statuses: string[]): void {
    this._query = { ...this._query, status: statuses };
    this._recompute();
  }

  /** Tick or untick a status value. */
  toggleStatus(value: string, on: boolean): void {
    const current = new Set(this._query.status ?? []);
    if (on) {
      current.add(value);
    } else {
      current.delete(value);
    }
    this.setStatus([...current]);
  }

  /** Counts for the learner-status facet (empty without a status source). */
  get statusFacet(): readonly IFacetValue[] {
    return this._statusFacet;
  }

  /** Clear every filter ("Runnable here" is a view of the casebook, not a filter, and stays). */
  clear(): void {
    this._query = {
      ...emptyQuery(),
      runnableOnly: this._query.runnableOnly ?? false
    };
    this._recompute();
  }

  /** A case's status for the learner ('not-started' without a status source). */
  statusOf(name: string): CaseStatus {
    return this._statusOf?.(name) ?? 'not-started';
  }

  /** Set the function that tells a case's status, used by the status filter. */
  setStatusOf(statusOf: ((name: string) => CaseStatus) | null): void {
    this._statusOf = statusOf ?? undefined;
    this._recompute();
  }

  private _recompute(): void {
    const cases = this._casebook?.cases ?? [];
    // One pass for both: this runs on every keystroke over up to tens of
    // thousands of cases.
    const { visible, facets: counts } = queryCases(
      cases,
      this._query,
      this._statusOf
    );
    this._visible = visible;
    this._runnable = counts.runnable;
    const facets = {} as Record<FacetKey, IFacetValue[]>;
    for (const key of FACETS) {
      const selected = new Set(this._query[key]);
      facets[key] = (counts[key] ?? []).map(
        (entry: { value: string; count: number }) => ({
          value: entry.value,
          count: entry.count,
          selected: selected.has(entry.value)
        })
      );
    }
    this._facets = facets;
    const selectedStatus = new Set(this._query.status ?? []);
    this._statusFacet = (counts.status ?? []).map(entry => ({
      value: entry.value,
      count: entry.count,
      selected: selectedStatus.has(entry.value)
    }));
    this._changed.emit();
  }

  private _casebook: ICasebook | null = null;
  private _query: ICaseQuery = emptyQuery();
  private _visible: ICase[] = [];
  private _facets: Record<FacetKey, IFacetValue[]> = {
    library: [],
    crashType: [],
    rootCause: [],
    pipelineStage: []
  };
  private _statusOf: ((name: string) => CaseStatus) | undefined;
  private _statusFacet: IFacetValue[] = [];
  private _runnable = 0;
  private _changed = new Signal<this, void>(this);
}
