/**
 * Why a run of a replay plan ended, as a code with parameters, and its
 * sentence: translated in JupyterLab, English on the command line and in JSON
 * (`IRunResult.message`). Pure logic.
 */
import { english, renderCell, renderFate } from '../i18n';
import type { ICellRef, Translate } from '../i18n';

/** Why a run ended, in a word (`RunStop` says more). */
export type RunStatus =
  | 'completed'
  | 'crashed'
  | 'timeout'
  | 'interrupted'
  | 'kernel-died'
  | 'cancelled';

/**
 * What happened to the kernel when a run stopped because of it: it `died` (and
 * the server may be restarting it), it was `restarted` or `shut-down` by
 * someone else (another tab, the Running panel, the REST API), the connection
 * to it was `lost`, or it is `unresponsive` (it ignored an interrupt and may
 * still be running the cell).
 */
export type KernelFate =
  'died' | 'restarted' | 'shut-down' | 'lost' | 'unresponsive';

/** Why a run ended. */
export type RunStop =
  /** Every step ran. */
  | { code: 'completed'; count: number }
  /** A step raised (the cell is null only when the run does not know which). */
  | { code: 'crashed'; cell: ICellRef | null; ename: string; evalue: string }
  /** Someone interrupted the run. */
  | { code: 'interrupted' }
  /** The run was stopped on purpose. */
  | { code: 'cancelled' }
  /** The run could not go on, e.g. its set-up code failed; `reason` is the error's own text. */
  | { code: 'failed'; reason: string }
  /** A cell ran longer than the per-cell timeout and the kernel heeded the interrupt. */
  | { code: 'timeout'; cell: ICellRef; seconds: number }
  /**
   * The kernel went away, or ignored the interrupt, while running a cell;
   * `timeoutSeconds` when a timeout led to it, `detail` the connection's own
   * words when it had any.
   */
  | {
      code: 'kernel';
      fate: KernelFate;
      cell: ICellRef;
      timeoutSeconds?: number;
      detail?: string;
    };

/**
 * The sentence for why a run ended: translated by `__`, English by default.
 */
export function renderRunStop(stop: RunStop, __: Translate = english): string {
  switch (stop.code) {
    case 'completed':
      return __('All %1 cells ran without error.', stop.count);
    case 'crashed':
      return upperFirst(
        __(
          '%1 raised %2: %3',
          stop.cell ? renderCell(stop.cell, __) : __('a cell'),
          stop.ename,
          stop.evalue
        )
      );
    case 'interrupted':
      return __('The replay was interrupted.');
    case 'cancelled':
      return __('The replay was stopped.');
    case 'failed':
      return __('The replay stopped: %1', stop.reason);
    case 'timeout':
      return upperFirst(
        __(
          '%1 ran longer than %2 s and was interrupted.',
          renderCell(stop.cell, __),
          stop.seconds
        )
      );
    case 'kernel': {
      const cell = renderCell(stop.cell, __);
      let text = renderFate(stop.fate, cell, __);
      if (stop.detail) {
        text = __('%1 (%2)', text, stop.detail);
      }
      if (stop.timeoutSeconds !== undefined) {
        text = __(
          '%1 ran longer than %2 s. %3',
          upperFirst(cell),
          stop.timeoutSeconds,
          text
        );
      }
      return text;
    }
  }
}

/**
 * Why a run with this status ended when no step said more: `count` steps ran,
 * the last in `cell`, which raised `error` when it crashed.
 */
export function stopOf(
  status: RunStatus,
  count: number,
  cell: ICellRef | null,
  error: { ename: string; evalue: string } | null
): RunStop {
  switch (status) {
    case 'completed':
      return { code: 'completed', count };
    case 'crashed':
      return {
        code: 'crashed',
        cell,
        ename: error?.ename ?? '',
        evalue: error?.evalue ?? ''
      };
    case 'interrupted':
      return { code: 'interrupted' };
    case 'cancelled':
      return { code: 'cancelled' };
    // Timeouts and kernel deaths bring their own stop.
    case 'timeout':
    case 'kernel-died':
    default:
      return { code: 'failed', reason: status };
  }
}

/** The fate of the kernel a run stopped on, if it stopped because of one. */
export function stopFate(stop: RunStop): KernelFate | undefined {
  return stop.code === 'kernel' ? stop.fate : undefined;
}

/** A sentence with its first letter in upper case (cell names start lower). */
export function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
