/**
 * Types of replay plans: which code cells run, in which order, and where the
 * recorded crash is. Pure data.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import type { PartialJSONObject } from '@lumino/coreutils';

/**
 * A cell output: nbformat's own type (`@jupyterlab/nbformat`). Outputs read
 * from a file are only as well-formed as `validateNotebook` checked; code that
 * reads a field of another shape narrows first (`nbformat.isError`…).
 */
export type INbOutput = nbformat.IOutput;

/**
 * A notebook cell as this extension reads it, built from nbformat's types: the
 * `cell_type` and `source` of `nbformat.IBaseCell` (a `cell_type` is any
 * string there) and the code-cell fields of `nbformat.ICodeCell`, optional.
 *
 * Cells read from a file are only as well-formed as `validateNotebook` checked:
 * a `cell_type` of `code`, `markdown` or `raw`, a `source`, and when present a
 * string `id`, a whole or null `execution_count`, a list of outputs (see
 * `INbOutput`) and a metadata object. That object's keys are not checked, so it
 * is a plain JSON object here rather than nbformat's typed cell metadata. Every
 * `nbformat.ICell` is an `INbCell`; code that hands cells to JupyterLab (the
 * contents API, a shared model) builds nbformat's own types.
 */
export interface INbCell
  extends
    Pick<nbformat.IBaseCell, 'cell_type' | 'source'>,
    Partial<Pick<nbformat.ICodeCell, 'id' | 'execution_count' | 'outputs'>> {
  /** Cell metadata: a JSON object, none of its keys checked. */
  metadata?: PartialJSONObject;
}

/**
 * A notebook as this extension reads it: `nbformat.INotebookContent` with
 * `INbCell` cells, `nbformat_minor` optional and metadata a plain JSON object.
 *
 * Notebooks read from a file are only as well-formed as `validateNotebook`
 * checked: `nbformat` is 4, `nbformat_minor` a whole number and `metadata` an
 * object when present, the cells as `INbCell` says; `kernelspec` and the other
 * keys nbformat types in `nbformat.INotebookMetadata` are not checked. Every
 * `nbformat.INotebookContent` (`sharedModel.toJSON()`) is an `INotebookJSON`.
 */
export interface INotebookJSON
  extends
    Pick<nbformat.INotebookContent, 'nbformat'>,
    Partial<Pick<nbformat.INotebookContent, 'nbformat_minor'>> {
  /** The cells, in document order. */
  cells: INbCell[];
  /** Notebook metadata: a JSON object, none of its keys checked. */
  metadata?: PartialJSONObject;
}

/** One step of a replay plan: one execution of one code cell. */
export interface IPlanStep {
  /** Index of the cell among all cells of the notebook. */
  cellIndex: number;
  /** Index of the cell among the code cells (JunoBench's `code_cell_id`). */
  codeCellIndex: number;
  /** The recorded execution count, or null in a top-to-bottom plan for cells that had none. */
  executionCount: number | null;
  /** The code to send to the kernel, with the `[reexecute]` marker stripped (see `stripMarkers`). */
  source: string;
  /** 1 for the first run, 2 for the repeated run of a `[reexecute]` cell. */
  run: 1 | 2;
  /** True when this step runs the target (crashing) cell. */
  isTarget: boolean;
}

/** The crashing cell of a reproduced notebook and what it recorded. */
export interface ITarget {
  /** Index among all cells. */
  cellIndex: number;
  /** Index among code cells. */
  codeCellIndex: number;
  /** Recorded exception name. */
  ename: string;
  /** Recorded exception message. */
  evalue: string;
  /** Recorded traceback, ANSI codes removed. */
  traceback: string[];
  /** 1-based crash line in the target cell's stored source (markers included; see `lineAfterStrip`), when the traceback says. */
  line: number | null;
}

/** An ordered replay plan. */
export interface IReplayPlan {
  /** `recorded`: by execution count; `top-to-bottom`: document order. */
  kind: 'recorded' | 'top-to-bottom';
  /** The steps, in run order (the target is among them when there is one). */
  steps: IPlanStep[];
  /** The crashing cell, or null when the notebook holds no error output. */
  target: ITarget | null;
}

/** An exception as a name and a message, recorded or observed. */
export interface ICrashSignature {
  /** Exception name, bare (`ValueError`) or qualified (`sklearn.exceptions.NotFittedError`). */
  ename: string;
  /** Exception message. */
  evalue: string;
}

/**
 * How an observed crash compares with the recorded one: same exception and
 * message, same exception with another message, or another exception.
 */
export type CrashMatch =
  'as-recorded' | 'same-exception-different-message' | 'different-exception';

/** Where one step of a plan stands against the document order. */
export interface IOrderEntry {
  /** Index of the step in the plan. */
  stepIndex: number;
  /** Index of the cell among all cells. */
  cellIndex: number;
  /** Index of the cell among code cells. */
  codeCellIndex: number;
  /** The step's recorded execution count, if any. */
  executionCount: number | null;
  /** 1 for the first run, 2 for the repeated run of a `[reexecute]` cell. */
  run: 1 | 2;
  /** True when this step runs the target cell. */
  isTarget: boolean;
  /** 0-based rank of the cell among the plan's distinct cells taken in document order. */
  documentPosition: number;
  /** The cell runs before some cell that sits above it in the document (it ran "ahead"). */
  runsAhead: boolean;
  /** The cell runs after some cell that sits below it in the document (it ran "behind"). */
  runsBehind: boolean;
}

/** A plan's run order compared with the document order, step by step. */
export interface IOrderComparison {
  /** One entry per plan step, in run order. */
  entries: IOrderEntry[];
  /** True when no step runs before a cell above it (runs of the same cell may repeat). */
  inDocumentOrder: boolean;
  /** Number of distinct cells that run ahead of a cell above them. */
  cellsAhead: number;
  /** Number of distinct cells that run behind a cell below them. */
  cellsBehind: number;
}

/** Counts about a plan for a timeline header. */
export interface IPlanSummary {
  /** The plan's kind. */
  kind: IReplayPlan['kind'];
  /** Number of steps (kernel executions). */
  steps: number;
  /** Number of distinct cells that run. */
  cells: number;
  /** Code-cell indices of cells that run twice in a row (`[reexecute]`). */
  reexecuted: number[];
  /** Index of the first step that runs the target, or null without a target. */
  targetStep: number | null;
  /** Steps planned after the last target step (they matter once the crash is fixed). */
  stepsAfterTarget: number;
  /** Whether the run order follows the document order. */
  inDocumentOrder: boolean;
}
