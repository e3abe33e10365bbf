/**
 * The learner's working copy of a reproduced notebook: the same cells with the
 * `[reexecute]` markers stripped, outputs and counts cleared (the crash is to
 * be watched live), stable cell ids, and the replay plans kept in metadata so a
 * replay still finds its cells after the learner edits the notebook. Pure.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type * as nbformat from '@jupyterlab/nbformat';
import type { PartialJSONObject } from '@lumino/coreutils';

import {
  recordedPlan,
  stripMarkers,
  sourceText,
  topToBottomPlan
} from '../replay/plan';
import type { INotebookJSON, IReplayPlan } from '../replay/types';

/** A plan step as stored in a working copy: by cell id. */
export interface IStoredStep {
  /** Cell id in the working copy. */
  cellId: string;
  /** Cell position in the reproduced notebook (1-based, for people). */
  cell: number;
  /** Recorded execution count. */
  count: number | null;
  /** 1 or 2 (second run of a `[reexecute]` cell). */
  run: 1 | 2;
  /** Whether this is the crashing cell. */
  target: boolean;
}

/** What a working copy remembers of its case, under `metadata.junobench`. */
export interface IWorkingCopyMeta {
  /** Format version. */
  version: 1;
  /** Case name. */
  case: string;
  /** Casebook name. */
  casebook: string;
  /** Server path of the case folder. */
  caseFolder: string;
  /** Attempt number of this copy (1 for the first). */
  attempt: number;
  /** ISO time of creation. */
  created: string;
  /** The recorded exception. */
  recorded: { ename: string; evalue: string; line: number | null };
  /** Cell id of the crashing cell. */
  targetCellId: string | null;
  /** Steps in recorded order. */
  recordedPlan: IStoredStep[];
  /** Steps top to bottom. */
  topToBottomPlan: IStoredStep[];
}

/**
 * Make a working copy of a reproduced notebook: a whole nbformat notebook, as
 * the contents API saves it.
 */
export function makeWorkingCopy(
  reproduced: INotebookJSON,
  info: {
    caseName: string;
    casebook: string;
    caseFolder: string;
    attempt: number;
    recordedEname: string;
    recordedEvalue: string;
    now?: Date;
  }
): nbformat.INotebookContent {
  const recorded = recordedPlan(reproduced);
  const contrast = topToBottomPlan(reproduced);
  const used = new Set<string>();
  const ids = reproduced.cells.map((cell, i) => {
    let id = typeof cell.id === 'string' && cell.id ? cell.id : `jb-cell-${i}`;
    while (used.has(id)) {
      id = `${id}-${i}`;
    }
    used.add(id);
    return id;
  });
  const cells = reproduced.cells.map((cell, i): nbformat.ICell => {
    const copy = {
      ...cell,
      id: ids[i],
      source: sourceText(cell),
      metadata: { ...(cell.metadata ?? {}) }
    };
    if (cell.cell_type !== 'code') {
      return copy;
    }
    return {
      ...copy,
      cell_type: 'code',
      source: stripMarkers(copy.source),
      outputs: [],
      execution_count: null
    };
  });
  const store = (plan: IReplayPlan): IStoredStep[] =>
    plan.steps.map(s => ({
      cellId: ids[s.cellIndex],
      cell: s.cellIndex + 1,
      count: s.executionCount,
      run: s.run,
      target: s.isTarget
    }));
  const meta: IWorkingCopyMeta = {
    version: 1,
    case: info.caseName,
    casebook: info.casebook,
    caseFolder: info.caseFolder,
    attempt: info.attempt,
    created: (info.now ?? new Date()).toISOString(),
    recorded: {
      ename: info.recordedEname || recorded.target?.ename || '',
      evalue: info.recordedEvalue || recorded.target?.evalue || '',
      line: recorded.target?.line ?? null
    },
    targetCellId: recorded.target ? ids[recorded.target.cellIndex] : null,
    recordedPlan: store(recorded),
    topToBottomPlan: store(contrast)
  };
  return {
    ...reproduced,
    cells,
    metadata: {
      ...(reproduced.metadata ?? {}),
      junobench: meta as unknown as PartialJSONObject
    },
    nbformat: 4,
    nbformat_minor: Math.max(5, reproduced.nbformat_minor ?? 5)
  };
}

/**
 * Read the JunoBench metadata of a notebook, or null when it is not a working copy.
 */
export function readWorkingCopyMeta(
  metadata: unknown
): IWorkingCopyMeta | null {
  if (!metadata || typeof metadata !== 'object') {
    return null;
  }
  const meta = (metadata as Record<string, unknown>).junobench as
    IWorkingCopyMeta | undefined;
  if (!meta || meta.version !== 1 || !Array.isArray(meta.recordedPlan)) {
    return null;
  }
  return meta;
}

/**
 * The working copy path of an attempt: `<workspace>/<casebook>/<case>/<case>-<n>.ipynb`.
 */
export function workingCopyPath(
  workspace: string,
  casebook: string,
  caseName: string,
  attempt: number
): string {
  return PathExt.join(
    workspace,
    casebook,
    caseName,
    `${caseName}-${attempt}.ipynb`
  );
}
