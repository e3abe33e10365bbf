/**
 * Types of replay plans: which code cells run, in which order, and where the
 * recorded crash is. Pure data.
 */

/** A notebook cell output as nbformat 4 stores it (the subset we read). */
export interface INbOutput {
  output_type: string;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  execution_count?: number | null;
  [key: string]: unknown;
}

/** A notebook cell as nbformat 4 stores it (the subset we read). */
export interface INbCell {
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  outputs?: INbOutput[];
  id?: string;
  metadata?: Record<string, unknown>;
}

/** A notebook as nbformat 4 stores it (the subset we read). */
export interface INotebookJSON {
  cells: INbCell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
}

/** One step of a replay plan: one execution of one code cell. */
export interface IPlanStep {
  /** Index of the cell among all cells of the notebook. */
  cellIndex: number;
  /** Index of the cell among the code cells (JunoBench's `code_cell_id`). */
  codeCellIndex: number;
  /** The recorded execution count, or null in a top-to-bottom plan for cells that had none. */
  executionCount: number | null;
  /** The code to send to the kernel, with the `[reexecute]` marker line stripped. */
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
  /** 1-based line in the target cell where the crash happened, when the traceback says. */
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
