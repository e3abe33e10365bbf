/**
 * The case card under an expanded row of the case list: the README's
 * description, the labels (or why the reveal keeps them), the datasets with
 * their licences and links, what the folder lacks and, for a case that cannot
 * run, "Fetch this case" and how the fetch stands. Text from the casebook is
 * rendered as text, never as HTML.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import type { MissingPart } from '../casebook/runnable';
import type { ICase } from '../casebook/types';
import { renderFetchFailure } from '../model/caseFetcher';
import type { IFetchState } from '../model/caseFetcher';
import type { CasebookModel } from '../model/casebookModel';

/**
 * The card of one case.
 */
export function CaseCard(props: CaseCard.IProps): React.ReactElement {
  const { c, id, missing, labels, description, onDescribe, trans } = props;
  // The README is read when its card is first shown, not for every row.
  React.useEffect(() => {
    if (description === undefined) {
      onDescribe(c);
    }
  }, [c, description, onDescribe]);
  return (
    <section
      className="jp-Junobench-caseCard"
      id={id}
      aria-label={trans.__('Case %1', c.name)}
    >
      {description !== null && (
        <p className="jp-Junobench-caseAbout" hidden={description === ''}>
          {description ?? trans.__('Reading the case’s README…')}
        </p>
      )}
      <div className="jp-Junobench-caseLabels">
        {labels.open
          ? trans.__(
              'Crash type: %1 · root cause: %2 · stage: %3',
              c.crashType || trans.__('(none)'),
              c.rootCause || trans.__('(none)'),
              c.pipelineStage || trans.__('(none)')
            )
          : trans.__(
              'Labels (crash type, root cause, stage) hidden until the reveal: %1',
              labels.why
            )}
      </div>
      {c.datasets.map((d, i) => (
        <div key={i} className="jp-Junobench-dataset">
          <span className="jp-Junobench-cardLabel">{trans.__('Dataset:')}</span>
          {/^https?:\/\//i.test(d.url) ? (
            <a href={d.url} target="_blank" rel="noopener noreferrer">
              {d.title || trans.__('(untitled)')}
            </a>
          ) : (
            <span>{d.title || trans.__('(untitled)')}</span>
          )}
          {' · '}
          <span className="jp-Junobench-licence">
            {trans.__('licence: %1', d.license || trans.__('not stated'))}
          </span>
        </div>
      ))}
      {c.datasets.length === 0 && (
        <div>{trans.__('The descriptor credits no dataset.')}</div>
      )}
      {missing.length > 0 && (
        <>
          <div className="jp-Junobench-cardLabel">
            {trans.__('Missing here:')}
          </div>
          <ul
            className="jp-Junobench-missing"
            aria-label={trans.__('Missing here')}
          >
            {missing.map(m => (
              <li key={m}>{CaseCard.missingText(m, trans)}</li>
            ))}
          </ul>
        </>
      )}
      {missing.some(m => m !== 'fixed') && <Fetch {...props} />}
    </section>
  );
}

/**
 * A namespace for CaseCard statics.
 */
export namespace CaseCard {
  /** Whether missing cases can be fetched into the casebook from the panel. */
  export type IFetchSource = Pick<
    CasebookModel.IFetchSource,
    'fetchable' | 'reason'
  >;

  /** How fetching one case stands. */
  export type IFetchProgress = IFetchState;

  /** What the card shows. */
  export interface IProps {
    /** The case. */
    c: ICase;
    /** The card's element id (the row's Details button controls it). */
    id: string;
    /** What the case's folder lacks, most important first. */
    missing: readonly MissingPart[];
    /** Whether the labels may be shown (the reveal policy), and why not. */
    labels: { open: boolean; why: string };
    /**
     * The README's description: undefined while it is read, '' without one,
     * null when the case has no README to read.
     */
    description: string | null | undefined;
    /** Read the case's README (the description arrives as a new `description`). */
    onDescribe: (c: ICase) => void;
    /** Whether cases can be fetched here, or null when the question does not arise. */
    fetchSource: IFetchSource | null;
    /** How fetching this case stands, or null. */
    fetch: IFetchProgress | null;
    /** Fetch the case, or null when the panel cannot. */
    onFetch: ((name: string) => void) | null;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** What a missing part means for the learner. */
  export function missingText(
    part: MissingPart,
    trans: TranslationBundle
  ): string {
    switch (part) {
      case 'folder':
        return trans.__('the case folder (notebooks and input data)');
      case 'reproduced':
        return trans.__('the reproduced notebook');
      case 'data':
        return trans.__(
          'the input data (the descriptor credits a dataset, the folder has no data files)'
        );
      case 'fixed':
        return trans.__(
          'the reference fix (a repair cannot be checked against it)'
        );
    }
  }
}

/**
 * "Fetch this case" (or why not) and how the fetch stands, for a case that
 * cannot run here.
 */
function Fetch(props: CaseCard.IProps): React.ReactElement | null {
  const { c, fetchSource: source, fetch: progress, onFetch, trans } = props;
  if (!source) {
    return null;
  }
  return (
    <>
      {source.fetchable && onFetch ? (
        <button
          className="jp-Junobench-fetch jp-mod-styled jp-mod-accept"
          aria-label={trans.__('Fetch case %1', c.name)}
          disabled={progress?.state === 'running'}
          onClick={() => onFetch(c.name)}
        >
          {trans.__('Fetch this case')}
        </button>
      ) : source.reason ? (
        <div className="jp-Junobench-fetchOff">{source.reason}</div>
      ) : null}
      {progress && (
        <div
          className={
            progress.state === 'failed'
              ? 'jp-Junobench-fetchStatus jp-mod-error'
              : 'jp-Junobench-fetchStatus'
          }
          role="status"
        >
          {progress.state === 'running' ? (
            <>
              <progress
                max={100}
                value={progress.percent ?? undefined}
                aria-label={trans.__('Fetching %1', c.name)}
              />
              {' ' + (progress.detail || trans.__('Fetching…'))}
            </>
          ) : progress.state === 'failed' ? (
            trans.__(
              'The fetch failed: %1',
              progress.error
                ? renderFetchFailure(progress.error, trans.__.bind(trans))
                : ''
            )
          ) : (
            trans.__('Fetched; reloading the casebook…')
          )}
        </div>
      )}
    </>
  );
}
