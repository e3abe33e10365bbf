/**
 * The Filters box of the JunoBench side panel, over the catalogue model's
 * query and facet counts.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import type { ICaseQuery } from '../casebook/filter';
import { LIBRARY_LABELS } from '../casebook/library';
import { FACETS } from '../model/catalogue';
import type { FacetKey, IFacetValue } from '../model/catalogue';
import type { CaseStatus } from '../tokens';
import { CaseList } from './caseList';
import { activeFilterCount } from '../model/panelLogic';

/**
 * The Filters box: "Notebook-specific only", a group of checkboxes per facet
 * with the count of each value, the statuses once there are some, and "Clear
 * filters". Controlled by the catalogue's query; every tick goes to the model.
 */
export function CaseFilters(props: CaseFilters.IProps): React.ReactElement {
  const { query, facets, statusFacet, actions } = props;
  const { trans } = actions;
  const active = activeFilterCount(query);
  return (
    // Closed at first: the cases come first, the filters are one line.
    <details className="jp-Junobench-filters">
      <summary>
        {active
          ? trans._n('Filters (%1 active)', 'Filters (%1 active)', active)
          : trans.__('Filters')}
      </summary>
      <label className="jp-Junobench-nbOnly">
        <input
          type="checkbox"
          checked={query.notebookSpecificOnly}
          onChange={event =>
            actions.setNotebookSpecificOnly(event.currentTarget.checked)
          }
        />
        {trans.__('Notebook-specific only')}
      </label>
      {FACETS.map(key => (
        <Facet
          key={key}
          facet={key}
          title={facetTitle(key, trans)}
          entries={facets[key]}
          text={entry => facetText(key, entry, trans)}
          onToggle={actions.toggle}
        />
      ))}
      <Facet
        facet="status"
        title={trans.__('Status')}
        entries={statusFacet}
        text={entry =>
          `${CaseList.statusLabel(entry.value as CaseStatus, trans)} (${entry.count})`
        }
        onToggle={actions.toggle}
      />
      <button
        className="jp-Junobench-clear jp-mod-styled"
        onClick={actions.clear}
      >
        {trans.__('Clear filters')}
      </button>
    </details>
  );
}

/**
 * A namespace for CaseFilters statics.
 */
export namespace CaseFilters {
  /** What the filters do. */
  export interface IActions {
    /** Tick or untick a facet value. */
    toggle: (facet: FacetKey | 'status', value: string, on: boolean) => void;
    /** "Notebook-specific only". */
    setNotebookSpecificOnly: (on: boolean) => void;
    /** "Clear filters". */
    clear: () => void;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** Properties of the Filters box. */
  export interface IProps {
    /** The catalogue's query. */
    query: Readonly<ICaseQuery>;
    /** The counts of each facet's values. */
    facets: Readonly<Record<FacetKey, readonly IFacetValue[]>>;
    /** The counts of the learner's statuses (empty without statuses). */
    statusFacet: readonly IFacetValue[];
    /** What the filters do. */
    actions: IActions;
  }
}

/** One facet: a labelled checkbox per value, with its count. */
function Facet(props: {
  facet: FacetKey | 'status';
  title: string;
  entries: readonly IFacetValue[];
  text: (entry: IFacetValue) => string;
  onToggle: CaseFilters.IActions['toggle'];
}): React.ReactElement {
  const { facet, entries, onToggle } = props;
  return (
    <fieldset
      className="jp-Junobench-facet"
      data-facet={facet}
      // The statuses show once there are some; the others always.
      hidden={facet === 'status' && entries.length === 0}
    >
      <legend>{props.title}</legend>
      <div className="jp-Junobench-facetOptions">
        {entries.map(entry => (
          <label key={entry.value} className="jp-Junobench-facetOption">
            <input
              type="checkbox"
              checked={entry.selected}
              onChange={event =>
                onToggle(facet, entry.value, event.currentTarget.checked)
              }
            />
            {props.text(entry)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A facet's legend. */
function facetTitle(key: FacetKey, trans: TranslationBundle): string {
  switch (key) {
    case 'library':
      return trans.__('Library');
    case 'crashType':
      return trans.__('Crash type');
    case 'rootCause':
      return trans.__('Root cause');
    case 'pipelineStage':
      return trans.__('Pipeline stage');
  }
}

/** A facet value with its count (a library with its name, when it has one). */
function facetText(
  key: FacetKey,
  entry: IFacetValue,
  trans: TranslationBundle
): string {
  if (key === 'library') {
    const label =
      (LIBRARY_LABELS as Record<string, string>)[entry.value] ?? entry.value;
    return label !== entry.value
      ? `${entry.value} — ${label} (${entry.count})`
      : `${label} (${entry.count})`;
  }
  return `${entry.value || trans.__('(none)')} (${entry.count})`;
}
