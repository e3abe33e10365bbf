/**
 * What a notebook changed in how Python and IPython run code, from the probe's
 * end-of-run report (`interpreter()` in `jupyterlab_junobench/probe.py`): the
 * report is read and validated here, and every change the reference fix does
 * not make too becomes a finding that grades "not solved: it changes how the
 * notebook runs". Pure logic.
 */
import { cellRef } from '../i18n';
import type { ICellRef } from '../i18n';

/** What kind of change to the interpreter the probe found. */
export type InterpreterChangeKind =
  /** An IPython input transformer (cleanup, line, token or post) or prefilter. */
  | 'input-transformer'
  /** An IPython AST transformer (the check's own aside). */
  | 'ast-transformer'
  /** A custom exception handler (`set_custom_exc`). */
  | 'exception-handler'
  /** `sys.excepthook`, `sys.displayhook`, `sys.breakpointhook` or `sys.unraisablehook`. */
  | 'hook'
  /** A trace or profile function (`sys.settrace`, `threading.setprofile`, …). */
  | 'trace'
  /** An IPython event callback the notebook made. */
  | 'event-callback'
  /** A method of IPython's shell replaced on the running shell. */
  | 'shell'
  /** A library's or a builtin callable replaced by one the notebook made. */
  | 'monkeypatch'
  /** A thread the notebook started. */
  | 'thread';

/**
 * What this module finds (part of the check's findings, rendered by `renderFinding`).
 */
export type InterpreterFinding =
  /** The notebook changed how Python or IPython runs code. */
  | {
      code: 'interpreter-changed';
      kind: InterpreterChangeKind;
      name: string;
      madeIn: ICellRef | null;
    }
  /** The check's kernel could not say what the notebook changed in the interpreter. */
  | { code: 'interpreter-unknown' };

/** One change to the interpreter. */
export interface IInterpreterChange {
  /** What kind of change. */
  kind: InterpreterChangeKind;
  /** What changed: the transformer's or callback's name, the replaced attribute, the thread's target. */
  name: string;
  /** The kernel's execution count of the cell that made it, when known. */
  count: number | null;
}

/** The kinds a report may hold. */
const KINDS: Record<InterpreterChangeKind, true> = {
  'input-transformer': true,
  'ast-transformer': true,
  'exception-handler': true,
  hook: true,
  trace: true,
  'event-callback': true,
  shell: true,
  monkeypatch: true,
  thread: true
};

/** At most this many changes are said (the first ones found). */
const MAX_FINDINGS = 5;

/**
 * The probe's interpreter report as sent by the kernel, or null when it is not
 * one (no baseline was taken, the kernel did not answer): entries of unknown
 * kinds or shapes are left out.
 */
export function readInterpreterReport(
  value: unknown
): IInterpreterChange[] | null {
  if (!Array.isArray(value)) {
    return null;
  }
  const out: IInterpreterChange[] = [];
  for (const entry of value) {
    if (entry === null || typeof entry !== 'object') {
      continue;
    }
    const { kind, name, count } = entry as Record<string, unknown>;
    if (
      typeof kind === 'string' &&
      Object.prototype.hasOwnProperty.call(KINDS, kind) &&
      typeof name === 'string'
    ) {
      out.push({
        kind: kind as InterpreterChangeKind,
        name,
        count: typeof count === 'number' ? count : null
      });
    }
  }
  return out;
}

/**
 * The findings of a learner's interpreter report: each change the reference
 * fix's runs do not make too (same kind and name), with the cell that made it
 * where the kernel's execution count names one (`cells`: execution count to
 * the learner's cell); `not-checked` evidence when the report is missing.
 */
export function interpreterFindings(
  learner: IInterpreterChange[] | null,
  reference: IInterpreterChange[],
  cells: Map<number, ICellRef>
): InterpreterFinding[] {
  if (learner === null) {
    return [{ code: 'interpreter-unknown' }];
  }
  const made = new Set(reference.map(c => `${c.kind}\u0000${c.name}`));
  return learner
    .filter(c => !made.has(`${c.kind}\u0000${c.name}`))
    .slice(0, MAX_FINDINGS)
    .map(c => ({
      code: 'interpreter-changed',
      kind: c.kind,
      name: c.name,
      madeIn: c.count === null ? null : (cells.get(c.count) ?? null)
    }));
}

/**
 * The learner's cells by the execution count the check's kernel gave them.
 */
export function cellsByCount(
  steps: Array<{
    step: { cellIndex: number; executionCount: number | null };
    executionCount: number | null;
  }>
): Map<number, ICellRef> {
  const out = new Map<number, ICellRef>();
  for (const s of steps) {
    if (s.executionCount !== null && s.step.cellIndex >= 0) {
      out.set(
        s.executionCount,
        cellRef(s.step.cellIndex, s.step.executionCount)
      );
    }
  }
  return out;
}
