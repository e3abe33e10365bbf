/**
 * The probe's report read from its JSON (`jupyterlab_junobench/probe.py`: the
 * units of a traced cell that ran, the exceptions through any cell's frames,
 * caught ones included, what the cell did to the state, with element-wise
 * views and figures), and the reference's evidence read back from a cache,
 * each validated. Pure logic.
 */
import type { ChangeKind, IValueSummary } from '../state/values';
import type { IColumnDigest, IRoundingEvidence } from './compare';
import { readInterpreterReport } from './interpreter';
import type { IInterpreterChange } from './interpreter';

/** A statement's first and last line and its kind ('String' for a bare string literal). */
export type StatementSpan = [number, number, string];

/** An exception seen in a cell's frames while a traced cell ran. */
export interface ITracedException {
  /** Exception class name. */
  ename: string;
  /** Its message, shortened. */
  evalue: string;
  /** The line of the frame it passed through first. */
  line: number;
  /** `module.QualName` of its class (empty from an older probe). */
  key?: string;
  /** Whether the class is genuine: defined in a module (not a cell) and found there under its name. */
  genuine?: boolean;
  /** The names of its class's MRO, the class first. */
  mro?: string[];
  /** Whether it is one of the real StopIteration, StopAsyncIteration, GeneratorExit. */
  benign?: boolean;
  /** Whether that frame was the traced cell's own code (else another cell's function). */
  inCell?: boolean;
  /** Whether it happened in another thread than the kernel's main one. */
  thread?: boolean;
  /** The prompt number of the cell whose code the frame runs, when known. */
  cellCount?: number | null;
  /** The frame's function name (`<module>` for the cell itself). */
  function?: string;
}

/** One unit of code of a traced cell: a statement or an evaluation point inside one. */
export interface IUnit {
  /** Its id in the kernel. */
  id: number;
  /** What kind of unit: a statement's node type, 'String', 'Call', 'IfExp.body'… */
  kind: string;
  /** First and last line in the cell. */
  line: number;
  /** Last line in the cell. */
  endLine: number;
  /** Whether it sits in code the cell compiled while running (a `%%time` body). */
  nested: boolean;
  /** Its code (normalised by Python's `ast.unparse`). */
  text: string;
  /** Whether its marker fired. */
  ran: boolean;
}

/** What the tracer saw of one cell. */
export interface ITraceReport {
  /** Lines of the cell that ran (older probes; empty now: see `units`). */
  lines: number[];
  /** Exceptions raised in or through any cell's frames while the cell ran, in order. */
  exceptions: ITracedException[];
  /** Statements of the cell's code. */
  spans: StatementSpan[];
  /** Lines inside multi-line string literals. */
  stringLines: number[];
  /** The units of code of the cell, and whether each ran (null from an older probe). */
  units: IUnit[] | null;
  /** Whether the cell's code was instrumented (false: a syntax error, or no IPython). */
  instrumented: boolean;
}

/** What a cell did to the user namespace. */
export interface IEffectReport {
  /** Names the cell created, rebound, mutated or deleted. */
  changes: Record<string, ChangeKind>;
  /** Every user name's summary after the cell. */
  after: Record<string, IValueSummary>;
  /** The column names of the frames before the cell (to name arrays made from them). */
  before: Record<string, string[]>;
  /** The figures the cell drew. */
  figures: IFigureSummary[];
  /** Which names the cell's code leaves as results and which it only uses as intermediates. */
  roles: Record<string, 'result' | 'intermediate'>;
  /** What the cell read (names it uses before assigning them), summarised before it ran. */
  inputs?: Record<string, IValueSummary>;
  /** Per frame the cell adds columns to: which of those columns are results, which intermediates. */
  columnRoles?: Record<string, Record<string, 'result' | 'intermediate'>>;
}

/** The data digest of a drawn series (a line's y, bar heights, scatter offsets). */
export type IDataDigest = Omit<IColumnDigest, 'name'> & { n: number | null };

/** What a figure shows. */
export interface IFigureSummary {
  /** Its axes, in order. */
  axes: Array<{
    lines: Array<{ x: IDataDigest; y: IDataDigest; label: string }>;
    patches: number;
    bars: IDataDigest | null;
    collections: IDataDigest[];
    images: number;
    title: string;
    xlabel: string;
    ylabel: string;
  }>;
  /** Why it could not be summarised. */
  error?: string;
}

/** The probe's report for one cell. */
export interface IProbeReport {
  /** Present when the cell was traced. */
  trace: ITraceReport | null;
  /** Present when the namespace was summarised around the cell. */
  effect: IEffectReport | null;
}

/**
 * Read a probe report from the kernel's JSON, or null when it is not one.
 */
export function readProbeReport(value: unknown): IProbeReport | null {
  if (!isRecord(value)) {
    return null;
  }
  const trace = Private.readTrace(value.trace);
  const effect = Private.readEffect(value.effect);
  if (!trace && !effect) {
    return null;
  }
  return { trace, effect };
}

/** Whether a name the reference target sets is one of its results or only an intermediate. */
export type EffectRole = 'result' | 'intermediate';

/** One name the reference fix's target cell changed. */
export interface IReferenceEffect {
  /** How the reference target changed it. */
  change: ChangeKind;
  /** Its summary after the reference target (first run). */
  summary: IValueSummary;
  /** How strictly a learner's value is compared: see `CompareMode`. */
  mode: CompareMode;
  /** A result must be there after the learner's target; an intermediate may be missing. */
  role: EffectRole;
}

/**
 * How a learner's value is compared with the reference's: `values` when two
 * reference runs gave the same values (within tolerance), `structure` when
 * they only agreed on type, shape, dtype, columns and fitted state (a random
 * split or a model trained without a seed), `type` otherwise.
 */
export type CompareMode = 'values' | 'structure' | 'type';

/** What the reference fix does, from two fresh runs. */
export interface IReferenceEvidence {
  /** The probe version that gathered it (a cached entry of another version is not used). */
  probe: number;
  /** Names its target cell created, rebound or mutated. */
  effects: Record<string, IReferenceEffect>;
  /** Exception class keys its traced cells raise and catch themselves. */
  caught: string[];
  /** Names the reference fix's later cells read. */
  usedLater: string[];
  /** Strings the reference fix's later cells use (column names it handles itself later). */
  laterStrings: string[];
  /** Column names of the frames before its target, to name arrays made from them. */
  before: Record<string, string[]>;
  /** Columns its target adds that it only uses on the way (they may be missing). */
  intermediateColumns?: Record<string, string[]>;
  /** The figures its target draws, and whether their data are compared. */
  figures: { summaries: IFigureSummary[]; values: boolean };
  /**
   * Whether the reproduced notebook run top to bottom in a fresh kernel crashes
   * too (notebook-specific cases; 'unknown' when not run): when it is clean, a
   * clean fresh run of the learner's notebook proves nothing by itself.
   */
  reproducedFresh?: 'clean' | 'crashes' | 'unknown';
  /**
   * The results of its target cell as they are at the end of its whole run (the names it
   * still holds then), compared with the learner's at the end of theirs.
   */
  final?: Record<string, IReferenceEffect>;
  /**
   * What its runs changed in how the interpreter runs code (both runs together): a repair
   * may make these changes too.
   */
  interpreter?: IInterpreterChange[];
  /**
   * The values its rounding calls met at a rounding boundary: where a repair's value is one
   * rounding step from the reference's, it is the same value only there (absent: nowhere).
   */
  rounding?: IRoundingEvidence;
  /**
   * Its run on other data of the same form (the case's tables shuffled and jittered with
   * `seed`): the results, compared by values, that were other values there. A repair whose
   * same results stay the same on that data did not compute them from it.
   */
  perturbed?: IPerturbedEvidence;
}

/**
 * What the reference's results did on other data (`seed`): the results that changed, and of
 * those that are tables with named columns, the columns that changed.
 */
export interface IPerturbedEvidence {
  seed: number;
  changed: string[];
  columns: Record<string, string[]>;
}

/** The probe's rounding report, or null when it is not one. */
export function readRounding(value: unknown): IRoundingEvidence | null {
  if (value === null || typeof value !== 'object') {
    return null;
  }
  const { count, pairs } = value as Partial<IRoundingEvidence>;
  if (
    !count ||
    typeof count !== 'object' ||
    !Object.values(count).every(n => typeof n === 'number') ||
    !Array.isArray(pairs) ||
    !pairs.every(
      p =>
        Array.isArray(p) &&
        p.length === 2 &&
        p.every(n => typeof n === 'number' && Number.isInteger(n))
    )
  ) {
    return null;
  }
  return { count, pairs };
}

/**
 * Read reference evidence back (from a cache): null when it is not evidence of
 * this probe version, so a stale or damaged entry is learned again.
 */
export function readReferenceEvidence(
  value: unknown,
  probe: number
): IReferenceEvidence | null {
  if (!isRecord(value) || value.probe !== probe) {
    return null;
  }
  const v = value as Partial<IReferenceEvidence>;
  if (
    !isRecord(v.effects) ||
    !Array.isArray(v.caught) ||
    !Array.isArray(v.usedLater) ||
    !Array.isArray(v.laterStrings) ||
    !isRecord(v.before) ||
    !isRecord(v.figures) ||
    !Array.isArray(v.figures.summaries) ||
    (v.interpreter !== undefined &&
      readInterpreterReport(v.interpreter)?.length !==
        (v.interpreter as unknown[]).length) ||
    (v.rounding !== undefined && readRounding(v.rounding) === null) ||
    (v.perturbed !== undefined &&
      (!isRecord(v.perturbed) ||
        typeof v.perturbed.seed !== 'number' ||
        !Array.isArray(v.perturbed.changed) ||
        !v.perturbed.changed.every(n => typeof n === 'string') ||
        !isRecord(v.perturbed.columns)))
  ) {
    return null;
  }
  for (const effect of Object.values(v.effects)) {
    if (
      !isRecord(effect) ||
      !isRecord(effect.summary) ||
      typeof effect.summary.type !== 'string' ||
      !['values', 'structure', 'type'].includes(String(effect.mode)) ||
      !['result', 'intermediate'].includes(String(effect.role))
    ) {
      return null;
    }
  }
  return v as IReferenceEvidence;
}

/** Whether a value is a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

namespace Private {
  export function readTrace(v: unknown): ITraceReport | null {
    if (!isRecord(v) || !Array.isArray(v.spans)) {
      return null;
    }
    const exceptions = Array.isArray(v.exceptions)
      ? v.exceptions.filter(isRecord).map(e => {
          const out: ITracedException = {
            ename: String(e.ename ?? ''),
            evalue: String(e.evalue ?? ''),
            line: Number(e.line ?? 0)
          };
          if (typeof e.key === 'string') {
            out.key = e.key;
            out.genuine = e.genuine === true;
            out.mro = Array.isArray(e.mro) ? e.mro.map(String) : [out.ename];
            out.benign = e.benign === true;
            out.inCell = e.inCell !== false;
            out.thread = e.thread === true;
            out.cellCount =
              typeof e.cellCount === 'number' ? e.cellCount : null;
            out.function = typeof e.function === 'string' ? e.function : '';
          }
          return out;
        })
      : [];
    const units = Array.isArray(v.units)
      ? v.units.filter(isRecord).map(u => ({
          id: Number(u.id ?? -1),
          kind: String(u.kind ?? ''),
          line: Number(u.line ?? 0),
          endLine: Number(u.endLine ?? u.line ?? 0),
          nested: u.nested === true,
          text: String(u.text ?? ''),
          ran: u.ran === true
        }))
      : null;
    return {
      lines: Array.isArray(v.lines) ? v.lines.map(Number) : [],
      exceptions,
      spans: v.spans
        .filter(s => Array.isArray(s) && s.length >= 3)
        .map(s => [Number(s[0]), Number(s[1]), String(s[2])] as StatementSpan),
      stringLines: Array.isArray(v.stringLines)
        ? v.stringLines.map(Number)
        : [],
      units,
      instrumented: v.instrumented !== false
    };
  }

  export function readEffect(v: unknown): IEffectReport | null {
    if (!isRecord(v) || !isRecord(v.changes) || !isRecord(v.after)) {
      return null;
    }
    const after: Record<string, IValueSummary> = {};
    for (const [k, s] of Object.entries(v.after)) {
      if (isRecord(s) && typeof s.type === 'string') {
        after[k] = s as IValueSummary;
      }
    }
    const changes: Record<string, ChangeKind> = {};
    for (const [k, c] of Object.entries(v.changes)) {
      if (
        c === 'created' ||
        c === 'rebound' ||
        c === 'mutated' ||
        c === 'deleted'
      ) {
        changes[k] = c;
      }
    }
    const before: Record<string, string[]> = {};
    if (isRecord(v.before)) {
      for (const [k, s] of Object.entries(v.before)) {
        if (isRecord(s) && Array.isArray(s.columns)) {
          before[k] = s.columns.map(String);
        }
      }
    }
    const roles: Record<string, 'result' | 'intermediate'> = {};
    if (isRecord(v.roles)) {
      for (const [k, r] of Object.entries(v.roles)) {
        if (r === 'result' || r === 'intermediate') {
          roles[k] = r;
        }
      }
    }
    const figures = Array.isArray(v.figures)
      ? (v.figures.filter(isRecord) as unknown as IFigureSummary[]).map(f => ({
          ...f,
          axes: Array.isArray(f.axes) ? f.axes : []
        }))
      : [];
    const inputs: Record<string, IValueSummary> = {};
    if (isRecord(v.inputs)) {
      for (const [k, x] of Object.entries(v.inputs)) {
        if (isRecord(x) && typeof x.type === 'string') {
          inputs[k] = x as IValueSummary;
        }
      }
    }
    const columnRoles: Record<
      string,
      Record<string, 'result' | 'intermediate'>
    > = {};
    if (isRecord(v.columnRoles)) {
      for (const [frame, cols] of Object.entries(v.columnRoles)) {
        if (isRecord(cols)) {
          columnRoles[frame] = {};
          for (const [c, r] of Object.entries(cols)) {
            if (r === 'result' || r === 'intermediate') {
              columnRoles[frame][c] = r;
            }
          }
        }
      }
    }
    return { changes, after, before, figures, roles, inputs, columnRoles };
  }
}
