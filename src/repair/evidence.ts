/**
 * The evidence of a repair check: what the kernel-side probe
 * (`jupyterlab_junobench/probe.py`) saw of a traced cell (the units of code
 * that ran, the exceptions that passed through any cell's frames, caught ones
 * included) and of the state (what the cell created, rebound or mutated, with
 * element-wise views of array-likes, and the figures it drew), read from its
 * JSON report; and the rules that compare it with the reference fix. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import { describeSummary, showValue } from '../state/values';
import type { ChangeKind, IValueSummary } from '../state/values';
import { closeNumbers, compareViews, viewsAgree } from './compare';
import { readInterpreterReport } from './interpreter';

export type { IRoundingEvidence } from './compare';
import type { IInterpreterChange } from './interpreter';
import type {
  IColumnDigest,
  IRoundingEvidence,
  IValueView,
  ValueNote,
  ViewDifference
} from './compare';

export type { ChangeKind, IValueSummary } from '../state/values';
export { describeSummary } from '../state/values';

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
  if (!Private.isObject(value)) {
    return null;
  }
  const trace = Private.readTrace(value.trace);
  const effect = Private.readEffect(value.effect);
  if (!trace && !effect) {
    return null;
  }
  return { trace, effect };
}

/** Exception names a cell may raise and catch as control flow (older probes). */
const BENIGN = new Set([
  'StopIteration',
  'StopAsyncIteration',
  'GeneratorExit'
]);

/**
 * Exceptions swallowed while a cell ran: every traced exception when the cell
 * finished without error, but the real StopIteration, StopAsyncIteration and
 * GeneratorExit (compared by class identity, so a look-alike is not benign).
 */
export function swallowedExceptions(
  trace: ITraceReport,
  cellFailed: boolean
): ITracedException[] {
  if (cellFailed) {
    return [];
  }
  return trace.exceptions.filter(e =>
    e.benign === undefined ? !BENIGN.has(e.ename) : !e.benign
  );
}

/**
 * The identity of an exception class across kernels: its `module.QualName`
 * when genuine, else a key no reference can share.
 */
export function exceptionKey(e: ITracedException): string {
  if (e.key === undefined) {
    return e.ename;
  }
  return e.genuine ? e.key : `not-genuine:${e.key}`;
}

/** Whether a line of a traced cell ran, and what kind of statement holds it. */
export interface ILineEvidence {
  /** The innermost statement holding the line, or null when none does. */
  statement: StatementSpan | null;
  /** Whether the unit of code holding the line ran. */
  executed: boolean;
  /** Whether the line is inside a string literal rather than code. */
  inString: boolean;
  /** The unit judged, or null when no unit of code holds the line. */
  unit: IUnit | null;
}

/**
 * What the trace says of `line` of the cell: the unit of code that holds it
 * and best matches `statement` (the repaired statement: an `if False:` header
 * runs, its body does not; `x if False else y` runs, `x` does not) and whether
 * it ran, or that no code holds it (a cell magic's body, a string).
 */
export function lineEvidence(
  trace: ITraceReport,
  line: number,
  statement = ''
): ILineEvidence {
  let span: StatementSpan | null = null;
  for (const s of trace.spans) {
    if (s[0] <= line && line <= s[1]) {
      if (!span || s[1] - s[0] < span[1] - span[0]) {
        span = s;
      }
    }
  }
  const inStringLine =
    trace.stringLines.includes(line) || span?.[2] === 'String';
  if (trace.units === null) {
    const ran = new Set(trace.lines);
    const executed = span
      ? Array.from(
          { length: span[1] - span[0] + 1 },
          (_, k) => span![0] + k
        ).some(l => ran.has(l))
      : ran.has(line);
    return { statement: span, executed, inString: inStringLine, unit: null };
  }
  const holding = trace.units.filter(u => u.line <= line && line <= u.endLine);
  if (!holding.length) {
    return {
      statement: span,
      executed: false,
      inString: inStringLine,
      unit: null
    };
  }
  const wanted = Private.tokens(statement);
  let best: { unit: IUnit; score: number } | null = null;
  for (const unit of holding) {
    const score = wanted.length
      ? Private.dice(wanted, Private.tokens(unit.text))
      : -(unit.endLine - unit.line);
    const better =
      !best ||
      score > best.score + 1e-9 ||
      (Math.abs(score - best.score) <= 1e-9 &&
        unit.endLine - unit.line < best.unit.endLine - best.unit.line);
    if (better) {
      best = { unit, score };
    }
  }
  const unit = best!.unit;
  return {
    statement: span,
    executed: unit.ran && unit.kind !== 'String',
    inString: unit.kind === 'String' || inStringLine,
    unit
  };
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

/**
 * The named columns of a value's element-wise view, by name, or null when the value has none:
 * what tells which columns of a result change with the data.
 */
export function columnDigests(
  summary: IValueSummary
): Record<string, IColumnDigest> | null {
  const view = Private.viewOf(summary);
  if (!view?.names || !view.columns) {
    return null;
  }
  const out: Record<string, IColumnDigest> = {};
  for (const c of view.columns) {
    if (c.name !== null) {
      out[c.name] = c;
    }
  }
  return out;
}

/**
 * Whether a value holds other values on other data, not only the same ones in another order:
 * a column's sum, sum of absolute values or NaN count moved (text: the digest of its values in any order), or, for a
 * value without a view, its summary. Rows shuffled alone do not count: a repair that sorts
 * its result is as right as one that keeps the data's order.
 */
export function valuesMoved(a: IValueSummary, b: IValueSummary): boolean {
  const va = Private.viewOf(a);
  const vb = Private.viewOf(b);
  if (!va?.columns || !vb?.columns) {
    return JSON.stringify(a) !== JSON.stringify(b);
  }
  if (JSON.stringify(va.shape) !== JSON.stringify(vb.shape)) {
    return true;
  }
  return va.columns.some((c, j) => columnMoved(c, vb.columns![j]));
}

/** Whether a column digest holds other values than another (not only another order). */
export function columnMoved(
  a: IColumnDigest,
  b: IColumnDigest | undefined
): boolean {
  if (!b || a.kind !== b.kind) {
    return true;
  }
  if (a.kind === 'text') {
    if (a.sortedHash !== undefined && b.sortedHash !== undefined) {
      return a.sortedHash !== b.sortedHash;
    }
    return a.hash !== b.hash && !a.samples.every((s, i) => s === b.samples[i]);
  }
  return (['sum', 'abs', 'nan'] as const).some(
    k => !closeNumbers(a[k] as number, b[k] as number)
  );
}

/**
 * Of the reference's results that changed on other data, the parts of the learner's that did
 * not: a whole result (`name`) whose summary is the same on both runs, else the columns
 * (`name['column']`) the reference's changed and the learner's kept. Pure.
 */
export function unchangedOnOtherData(
  perturbed: IPerturbedEvidence,
  mine: Record<string, IValueSummary>,
  mineOther: Record<string, IValueSummary>
): string[] {
  const out: string[] = [];
  for (const name of perturbed.changed) {
    const a = mine[name];
    const b = mineOther[name];
    if (!a || !b) {
      continue;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) {
      out.push(name);
      continue;
    }
    const ca = columnDigests(a);
    const cb = columnDigests(b);
    for (const column of perturbed.columns[name] ?? []) {
      if (
        ca?.[column] !== undefined &&
        JSON.stringify(ca[column]) === JSON.stringify(cb?.[column])
      ) {
        out.push(`${name}['${column}']`);
      }
    }
  }
  return out;
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
 * How a value of the reference is compared, from two runs of it: by values where they agree,
 * else by structure where that agrees, else by type (also when the second run has no value).
 */
export function compareMode(
  first: IValueSummary,
  second: IValueSummary | undefined
): CompareMode {
  if (!second) {
    return 'type';
  }
  return !compareSummaries(first, second, 'values')
    ? 'values'
    : !compareSummaries(first, second, 'structure')
      ? 'structure'
      : 'type';
}

/**
 * Combine two reference runs' reports of the target cell (plus the traces of
 * the other cells the fix changed) into what a learner's repair is held to.
 */
export function referenceEvidence(
  first: IProbeReport,
  second: IProbeReport | null,
  otherTraces: ITraceReport[] = [],
  laterCode: string[] = [],
  probe = 0
): IReferenceEvidence {
  const effects: Record<string, IReferenceEffect> = {};
  const changes = first.effect?.changes ?? {};
  const words = new Set(laterCode.flatMap(c => c.match(/[A-Za-z_]\w*/g) ?? []));
  for (const [name, change] of Object.entries(changes)) {
    if (change === 'deleted') {
      continue;
    }
    const summary = first.effect?.after[name];
    if (!summary) {
      continue;
    }
    const mode = compareMode(summary, second?.effect?.after[name]);
    // Imports, classes and functions are code, not results, unless later code uses them (a
    // repair need not repeat an import the reference fix never uses).
    const role: EffectRole =
      words.has(name) ||
      (first.effect?.roles[name] !== 'intermediate' && !summary.definition)
        ? 'result'
        : 'intermediate';
    effects[name] = { change, summary, mode, role };
  }
  const caught = new Set<string>();
  for (const trace of [first.trace, second?.trace ?? null, ...otherTraces]) {
    trace?.exceptions.forEach(e => caught.add(exceptionKey(e)));
  }
  const usedLater = Object.keys(effects).filter(n => words.has(n));
  const laterStrings = new Set<string>();
  for (const code of laterCode) {
    for (const m of code.matchAll(/(['"])((?:(?!\1)[^\\\n]){1,80})\1/g)) {
      laterStrings.add(m[2]);
    }
  }
  const figures = first.effect?.figures ?? [];
  const again = second?.effect?.figures ?? null;
  return {
    probe,
    effects,
    caught: [...caught].sort(),
    usedLater: usedLater.sort(),
    laterStrings: [...laterStrings].sort(),
    before: first.effect?.before ?? {},
    intermediateColumns: Object.fromEntries(
      Object.entries(first.effect?.columnRoles ?? {}).map(([frame, cols]) => [
        frame,
        Object.keys(cols).filter(c => cols[c] === 'intermediate')
      ])
    ),
    figures: {
      summaries: figures,
      values: again !== null && compareFigures(figures, again, true) === null
    }
  };
}

/**
 * Read reference evidence back (from a cache): null when it is not evidence of
 * this probe version, so a stale or damaged entry is learned again.
 */
export function readReferenceEvidence(
  value: unknown,
  probe: number
): IReferenceEvidence | null {
  if (!Private.isObject(value) || value.probe !== probe) {
    return null;
  }
  const v = value as Partial<IReferenceEvidence>;
  if (
    !Private.isObject(v.effects) ||
    !Array.isArray(v.caught) ||
    !Array.isArray(v.usedLater) ||
    !Array.isArray(v.laterStrings) ||
    !Private.isObject(v.before) ||
    !Private.isObject(v.figures) ||
    !Array.isArray(v.figures.summaries) ||
    (v.interpreter !== undefined &&
      readInterpreterReport(v.interpreter)?.length !==
        (v.interpreter as unknown[]).length) ||
    (v.rounding !== undefined && readRounding(v.rounding) === null) ||
    (v.perturbed !== undefined &&
      (!Private.isObject(v.perturbed) ||
        typeof v.perturbed.seed !== 'number' ||
        !Array.isArray(v.perturbed.changed) ||
        !v.perturbed.changed.every(n => typeof n === 'string') ||
        !Private.isObject(v.perturbed.columns)))
  ) {
    return null;
  }
  for (const effect of Object.values(v.effects)) {
    if (
      !Private.isObject(effect) ||
      !Private.isObject(effect.summary) ||
      typeof effect.summary.type !== 'string' ||
      !['values', 'structure', 'type'].includes(String(effect.mode)) ||
      !['result', 'intermediate'].includes(String(effect.role))
    ) {
      return null;
    }
  }
  return v as IReferenceEvidence;
}

/** The aspect in which two values differ. */
export type DifferenceAspect =
  | 'missing'
  | 'type'
  | 'shape'
  | 'dtype'
  | 'columns'
  | 'fitted'
  | 'constant'
  | 'value'
  | 'index'
  | 'figure';

/** One side of a value difference, as a code with parameters (see `renderValueSide`). */
export type ValueSide =
  | { code: 'summary'; summary: IValueSummary }
  | { code: 'not-defined' }
  | { code: 'shape'; shape: unknown }
  | { code: 'dtype'; dtype: unknown }
  | { code: 'columns'; columns: string[] }
  | { code: 'no-more-columns' }
  | { code: 'extra-columns'; columns: string[] }
  | { code: 'not-there' }
  | {
      code: 'attribute';
      key: 'fitted' | 'built' | 'weights' | 'params' | 'features';
      value: unknown;
    }
  | { code: 'varying' }
  | { code: 'one-value' }
  | { code: 'value'; value: unknown }
  | { code: 'stats'; sum: unknown; min: unknown; max: unknown }
  | { code: 'length'; len: unknown }
  | { code: 'other-values' }
  | {
      code: 'at';
      column: string | null;
      row: number | null;
      value: unknown;
    }
  | {
      code: 'stat';
      column: string | null;
      stat: 'sum' | 'order' | 'min' | 'max' | 'hash' | 'nan' | 'kind';
      value: unknown;
    }
  | { code: 'labels'; labels: string[] }
  | { code: 'figures'; count: number }
  | {
      code: 'figure-part';
      figure: number;
      axes: number;
      part: string;
      count: unknown;
    };

/** How a learner's value differs from the reference's. */
export interface IValueDifference {
  /** The aspect. */
  aspect: DifferenceAspect;
  /** The reference's side, for people (English; `expectedSide` rendered). */
  expected: string;
  /** The learner's side, for people (English; `actualSide` rendered). */
  actual: string;
  /** The reference's side as a code. */
  expectedSide: ValueSide;
  /** The learner's side as a code. */
  actualSide: ValueSide;
}

/**
 * One side of a value difference as words: translated by `__`, English by default.
 */
export function renderValueSide(
  side: ValueSide,
  __: Translate = english
): string {
  const show = showValue;
  switch (side.code) {
    case 'summary':
      return describeSummary(side.summary, __);
    case 'not-defined':
      return __('not defined');
    case 'shape':
      return __('shape %1', show(side.shape));
    case 'dtype':
      return __('dtype %1', show(side.dtype));
    case 'columns':
      return side.columns.length > 1
        ? __('columns %1', Private.list(side.columns))
        : __('column %1', Private.list(side.columns));
    case 'no-more-columns':
      return __('no more columns');
    case 'extra-columns':
      return side.columns.length > 1
        ? __('extra columns %1', Private.list(side.columns))
        : __('extra column %1', Private.list(side.columns));
    case 'not-there':
      return __('not there');
    case 'attribute':
      return `${renderAttribute(side.key, __)} ${show(side.value)}`;
    case 'varying':
      return __('values that vary');
    case 'one-value':
      return __('one value everywhere');
    case 'value':
      return show(side.value);
    case 'stats':
      return __(
        'sum %1, min %2, max %3',
        show(side.sum),
        show(side.min),
        show(side.max)
      );
    case 'length':
      return __('length %1', show(side.len));
    case 'other-values':
      return __('other values');
    case 'at':
      return side.column === null
        ? side.row === null
          ? show(side.value)
          : __('%1 at row %2', show(side.value), side.row)
        : side.row === null
          ? __('%1 in column %2', show(side.value), side.column)
          : __(
              '%1 at row %2 of column %3',
              show(side.value),
              side.row,
              side.column
            );
    case 'stat':
      return side.column === null
        ? __('%1 %2', renderStat(side.stat, __), show(side.value))
        : __(
            '%1 %2 in column %3',
            renderStat(side.stat, __),
            show(side.value),
            side.column
          );
    case 'labels':
      return __('labels %1', Private.list(side.labels));
    case 'figures':
      return __('%1 figure(s)', side.count);
    case 'figure-part':
      return __(
        'figure %1, axes %2: %3 %4',
        side.figure,
        side.axes,
        renderFigurePart(side.part, __),
        show(side.count)
      );
  }
}

/** The word for a statistic of a column. */
function renderStat(
  stat: 'sum' | 'order' | 'min' | 'max' | 'hash' | 'nan' | 'kind',
  __: Translate
): string {
  switch (stat) {
    case 'sum':
      return __('sum');
    case 'order':
      return __('order-sensitive sum');
    case 'min':
      return __('minimum');
    case 'max':
      return __('maximum');
    case 'hash':
      return __('text digest');
    case 'nan':
      return __('missing values');
    case 'kind':
      return __('kind');
  }
}

/** The word for a part of a figure. */
function renderFigurePart(part: string, __: Translate): string {
  switch (part) {
    case 'axes':
      return __('axes');
    case 'lines':
      return __('lines');
    case 'line data':
      return __('line data');
    case 'bars':
      return __('bars');
    case 'points':
      return __('points');
    case 'images':
      return __('images');
    default:
      return part;
  }
}

/** The word for a model attribute the check compares. */
function renderAttribute(
  key: 'fitted' | 'built' | 'weights' | 'params' | 'features',
  __: Translate
): string {
  switch (key) {
    case 'features':
      return __('input features');
    case 'fitted':
      return __('fitted');
    case 'built':
      return __('built');
    case 'weights':
      return __('weights');
    case 'params':
      return __('params');
  }
}

/**
 * The aspect of a difference as a word: translated by `__`, English by default.
 */
export function renderAspect(
  aspect: DifferenceAspect | string,
  __: Translate = english
): string {
  switch (aspect) {
    case 'type':
      return __('type');
    case 'missing':
      return __('missing');
    case 'shape':
      return __('shape');
    case 'dtype':
      return __('dtype');
    case 'columns':
      return __('columns');
    case 'fitted':
      return __('fitted');
    case 'constant':
      return __('constant');
    case 'value':
      return __('value');
    case 'index':
      return __('index');
    case 'figure':
      return __('figure');
    default:
      return aspect;
  }
}

/** A difference from its aspect and sides, with the English words. */
function makeDifference(
  aspect: DifferenceAspect,
  expectedSide: ValueSide,
  actualSide: ValueSide
): IValueDifference {
  return {
    aspect,
    expected: renderValueSide(expectedSide),
    actual: renderValueSide(actualSide),
    expectedSide,
    actualSide
  };
}

/**
 * How `actual` differs from `expected` under a comparison mode, or null when
 * it does not (the pooled summaries only: see `compareValues` for the views).
 */
export function compareSummaries(
  expected: IValueSummary,
  actual: IValueSummary,
  mode: CompareMode
): IValueDifference | null {
  return compareValues(expected, actual, mode).difference;
}

/** What comparing two values found. */
export interface IValueComparison {
  /** How they differ, or null. */
  difference: IValueDifference | null;
  /** What differs without changing the values. */
  notes: ValueNote[];
}

/** Names the columns of arrays made from frames, on either side. */
export interface IValueNames {
  /** Column names of the reference's frame of the same name before its target. */
  expected?: string[] | null;
  /** Column names of the learner's frame of the same name before the target. */
  actual?: string[] | null;
  /** Strings the reference's later cells use. */
  laterStrings?: ReadonlySet<string>;
  /**
   * The reference's columns of this name before its target (empty when the
   * target made the value): only these may be missing from the learner's.
   */
  expectedBefore?: string[] | null;
  /** Columns the reference's target makes only on the way: they may be missing too. */
  intermediateColumns?: string[];
  /** The values the reference's roundings met at a rounding boundary. */
  rounding?: IRoundingEvidence;
}

/**
 * Compare two values: array-likes element by element whatever holds them (a
 * list, an ndarray, a Series or a DataFrame of the same values are alike, with
 * a note), other values by their summaries.
 */
export function compareValues(
  expected: IValueSummary,
  actual: IValueSummary,
  mode: CompareMode,
  names: IValueNames = {}
): IValueComparison {
  const ve = Private.viewOf(expected);
  const va = Private.viewOf(actual);
  const typeA = Private.typeClass(expected);
  const typeB = Private.typeClass(actual);
  if (ve && va) {
    if (mode === 'type') {
      return { difference: null, notes: [] };
    }
    const cmp = compareViews(ve, va, {
      values: mode === 'values',
      expectedNames: names.expected,
      actualNames: names.actual,
      rounding: names.rounding,
      laterStrings: names.laterStrings,
      expectedBefore: names.expectedBefore,
      intermediateColumns: names.intermediateColumns
    });
    if (cmp.difference) {
      return { difference: Private.fromView(cmp.difference), notes: [] };
    }
    const notes = [...cmp.notes];
    if (typeA !== typeB) {
      // Another container says it all: its other shape goes without saying.
      notes.splice(
        0,
        notes.length,
        ...notes.filter(n => n.code !== 'squeezed')
      );
      notes.unshift({ code: 'other-type', expected: typeA, actual: typeB });
    }
    return { difference: null, notes };
  }
  if (typeA !== typeB) {
    return {
      difference: makeDifference(
        'type',
        { code: 'summary', summary: expected },
        { code: 'summary', summary: actual }
      ),
      notes: []
    };
  }
  if (mode === 'type') {
    return { difference: null, notes: [] };
  }
  const diff = Private.structure(expected, actual);
  if (diff || mode === 'structure') {
    return {
      difference: diff ?? Private.constancy(expected, actual),
      notes: []
    };
  }
  return { difference: Private.values(expected, actual), notes: [] };
}

/**
 * How an input of the live kernel's target differs from a fresh run's: by
 * structure, and for a fitted estimator by how many features it was fitted on
 * (a model refitted on a broken table). Null when they are alike.
 */
export function compareInputs(
  fresh: IValueSummary,
  live: IValueSummary
): IValueDifference | null {
  const d = compareValues(fresh, live, 'structure').difference;
  if (d) {
    return d;
  }
  if (
    fresh.features !== undefined &&
    !Private.sameJSON(fresh.features, live.features)
  ) {
    return makeDifference(
      'fitted',
      { code: 'attribute', key: 'features', value: fresh.features },
      { code: 'attribute', key: 'features', value: live.features }
    );
  }
  return null;
}

/**
 * How the learner's figures differ from the reference's, or null: as many
 * figures, axes, lines, bars and points, with the same data where `values`
 * (titles, labels and styles are not compared).
 */
export function compareFigures(
  expected: IFigureSummary[],
  actual: IFigureSummary[],
  values: boolean
): IValueDifference | null {
  const ok = (x: IFigureSummary) => !x.error;
  const e = expected.filter(ok);
  const a = actual.filter(ok);
  if (e.length !== a.length) {
    return makeDifference(
      'figure',
      { code: 'figures', count: e.length },
      { code: 'figures', count: a.length }
    );
  }
  for (let f = 0; f < e.length; f++) {
    const part = (p: string, x: unknown, y: unknown, axes = 0) =>
      makeDifference(
        'figure',
        { code: 'figure-part', figure: f + 1, axes, part: p, count: x },
        { code: 'figure-part', figure: f + 1, axes, part: p, count: y }
      );
    const ea = e[f].axes;
    const aa = a[f].axes;
    if (ea.length !== aa.length) {
      return part('axes', ea.length, aa.length);
    }
    for (let k = 0; k < ea.length; k++) {
      const x = ea[k];
      const y = aa[k];
      if (x.lines.length !== y.lines.length) {
        return part('lines', x.lines.length, y.lines.length, k + 1);
      }
      if (x.patches !== y.patches) {
        return part('bars', x.patches, y.patches, k + 1);
      }
      if (x.collections.length !== y.collections.length) {
        return part(
          'points',
          x.collections.length,
          y.collections.length,
          k + 1
        );
      }
      if (x.images !== y.images) {
        return part('images', x.images, y.images, k + 1);
      }
      if (!values) {
        continue;
      }
      for (let l = 0; l < x.lines.length; l++) {
        for (const axis of ['x', 'y'] as const) {
          if (!Private.sameData(x.lines[l][axis], y.lines[l][axis])) {
            return part('line data', l + 1, l + 1, k + 1);
          }
        }
      }
      if (x.bars && y.bars && !Private.sameData(x.bars, y.bars)) {
        return part('bars', x.patches, y.patches, k + 1);
      }
      for (let c = 0; c < x.collections.length; c++) {
        if (!Private.sameData(x.collections[c], y.collections[c])) {
          return part('points', c + 1, c + 1, k + 1);
        }
      }
    }
  }
  return null;
}

/** A name whose state after the learner's target differs from the reference's. */
export interface IEffectDifference {
  /** The variable ('' for the figures). */
  name: string;
  /** How it differs. */
  difference: IValueDifference;
}

/** Something about a name that differs from the reference without changing the result. */
export interface IEffectNote {
  /** The variable. */
  name: string;
  /** What differs: a value note, or an intermediate the learner did not keep or keeps otherwise. */
  note: EffectNote;
}

/**
 * A difference that keeps the results: a value note, an intermediate the learner did not keep,
 * or one kept in another form (another container, other values on the way: the results decide).
 */
export type EffectNote =
  | ValueNote
  | { code: 'intermediate-missing' }
  | {
      code: 'intermediate-differs';
      aspect: DifferenceAspect;
      expectedSide: ValueSide;
      actualSide: ValueSide;
    };

/** What comparing the learner's state after the target with the reference's found. */
export interface IEffectComparison {
  /** Names that differ (a result missing among them). */
  differences: IEffectDifference[];
  /** Differences that keep the result, said beside a pass. */
  notes: IEffectNote[];
  /** The names found alike. */
  same: string[];
}

/**
 * Compare the learner's state after the target with what the reference's
 * target cell did: every name it created, rebound or mutated is compared, read
 * later or not; a result must be there and alike, an intermediate the reference's cell
 * consumed itself may be missing or differ (a note: the results it led to are compared); the
 * figures it drew are compared.
 */
export function compareEffects(
  reference: IReferenceEvidence,
  learner: IEffectReport | Record<string, IValueSummary>
): IEffectComparison {
  const effect: IEffectReport = Private.isEffect(learner)
    ? learner
    : { changes: {}, after: learner, before: {}, figures: [], roles: {} };
  const out: IEffectComparison = { differences: [], notes: [], same: [] };
  const laterStrings = new Set(reference.laterStrings ?? []);
  for (const [name, ref] of Object.entries(reference.effects)) {
    const mine = effect.after[name];
    if (!mine) {
      if (ref.role === 'result') {
        out.differences.push({
          name,
          difference: makeDifference(
            'missing',
            { code: 'summary', summary: ref.summary },
            { code: 'not-defined' }
          )
        });
      } else {
        out.notes.push({ name, note: { code: 'intermediate-missing' } });
      }
      continue;
    }
    const cmp = compareValues(ref.summary, mine, ref.mode, {
      expected: reference.before?.[name] ?? null,
      actual: effect.before[name] ?? null,
      rounding: reference.rounding,
      laterStrings,
      expectedBefore: reference.before?.[name] ?? [],
      intermediateColumns: reference.intermediateColumns?.[name] ?? []
    });
    if (cmp.difference && ref.role === 'intermediate') {
      // Only used on the way to the results, which are compared themselves.
      const { aspect, expectedSide, actualSide } = cmp.difference;
      out.notes.push({
        name,
        note: { code: 'intermediate-differs', aspect, expectedSide, actualSide }
      });
    } else if (cmp.difference) {
      out.differences.push({ name, difference: cmp.difference });
    } else {
      out.same.push(name);
      cmp.notes.forEach(note => out.notes.push({ name, note }));
    }
  }
  if (reference.figures && Private.isEffect(learner)) {
    const d = compareFigures(
      reference.figures.summaries,
      effect.figures,
      reference.figures.values
    );
    if (d) {
      out.differences.push({ name: '', difference: d });
    }
  }
  out.differences.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

namespace Private {
  export function sameJSON(a: unknown, b: unknown): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  export function isObject(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  }

  export function isEffect(
    v: IEffectReport | Record<string, IValueSummary>
  ): v is IEffectReport {
    return isObject(v.after) && isObject(v.changes);
  }

  /** A list of names for a sentence, at most eight of them. */
  export function list(names: string[]): string {
    return names.length > 8
      ? `${names.slice(0, 8).join(', ')}, … (${names.length})`
      : names.join(', ');
  }

  /** Python tokens for matching code (identifiers, numbers, strings, operators). */
  export function tokens(code: string): string[] {
    return (
      code.match(/[A-Za-z_]\w*|\d+(?:\.\d+)?|'[^'\n]*'|"[^"\n]*"|[^\s\w]/g) ??
      []
    );
  }

  /** Dice coefficient over token multisets. */
  export function dice(a: string[], b: string[]): number {
    if (!a.length && !b.length) {
      return 1;
    }
    const counts = new Map<string, number>();
    a.forEach(t => counts.set(t, (counts.get(t) ?? 0) + 1));
    let shared = 0;
    b.forEach(t => {
      const n = counts.get(t) ?? 0;
      if (n > 0) {
        shared++;
        counts.set(t, n - 1);
      }
    });
    return (2 * shared) / (a.length + b.length);
  }

  export function readTrace(v: unknown): ITraceReport | null {
    if (!isObject(v) || !Array.isArray(v.spans)) {
      return null;
    }
    const exceptions = Array.isArray(v.exceptions)
      ? v.exceptions.filter(isObject).map(e => {
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
      ? v.units.filter(isObject).map(u => ({
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
    if (!isObject(v) || !isObject(v.changes) || !isObject(v.after)) {
      return null;
    }
    const after: Record<string, IValueSummary> = {};
    for (const [k, s] of Object.entries(v.after)) {
      if (isObject(s) && typeof s.type === 'string') {
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
    if (isObject(v.before)) {
      for (const [k, s] of Object.entries(v.before)) {
        if (isObject(s) && Array.isArray(s.columns)) {
          before[k] = s.columns.map(String);
        }
      }
    }
    const roles: Record<string, 'result' | 'intermediate'> = {};
    if (isObject(v.roles)) {
      for (const [k, r] of Object.entries(v.roles)) {
        if (r === 'result' || r === 'intermediate') {
          roles[k] = r;
        }
      }
    }
    const figures = Array.isArray(v.figures)
      ? (v.figures.filter(isObject) as unknown as IFigureSummary[]).map(f => ({
          ...f,
          axes: Array.isArray(f.axes) ? f.axes : []
        }))
      : [];
    const inputs: Record<string, IValueSummary> = {};
    if (isObject(v.inputs)) {
      for (const [k, x] of Object.entries(v.inputs)) {
        if (isObject(x) && typeof x.type === 'string') {
          inputs[k] = x as IValueSummary;
        }
      }
    }
    const columnRoles: Record<
      string,
      Record<string, 'result' | 'intermediate'>
    > = {};
    if (isObject(v.columnRoles)) {
      for (const [frame, cols] of Object.entries(v.columnRoles)) {
        if (isObject(cols)) {
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

  /** A summary's view, when it has a usable one. */
  export function viewOf(s: IValueSummary): IValueView | null {
    const v = s.view;
    if (
      !isObject(v) ||
      typeof v.error === 'string' ||
      !Array.isArray(v.shape)
    ) {
      return null;
    }
    return v as unknown as IValueView;
  }

  /** A view difference as a value difference. */
  export function fromView(d: ViewDifference): IValueDifference {
    switch (d.code) {
      case 'table':
        return makeDifference(
          'shape',
          { code: 'shape', shape: d.expected },
          { code: 'shape', shape: d.actual }
        );
      case 'extra-columns':
      case 'kept-columns':
        return makeDifference(
          'columns',
          { code: 'no-more-columns' },
          { code: 'extra-columns', columns: d.columns }
        );
      case 'missing-all-columns':
      case 'missing-columns':
        return makeDifference(
          'columns',
          { code: 'columns', columns: d.columns },
          { code: 'not-there' }
        );
      case 'kind':
        return makeDifference(
          'dtype',
          { code: 'stat', column: d.column, stat: 'kind', value: d.expected },
          { code: 'stat', column: d.column, stat: 'kind', value: d.actual }
        );
      case 'nan':
        return makeDifference(
          'value',
          { code: 'stat', column: d.column, stat: 'nan', value: d.expected },
          { code: 'stat', column: d.column, stat: 'nan', value: d.actual }
        );
      case 'at':
        return makeDifference(
          'value',
          { code: 'at', column: d.column, row: d.row, value: d.expected },
          { code: 'at', column: d.column, row: d.row, value: d.actual }
        );
      case 'stats':
        return makeDifference(
          'value',
          { code: 'stat', column: d.column, stat: d.stat, value: d.expected },
          { code: 'stat', column: d.column, stat: d.stat, value: d.actual }
        );
      case 'index':
        return makeDifference(
          'index',
          { code: 'labels', labels: d.expected },
          { code: 'labels', labels: d.actual }
        );
      case 'constant':
        return makeDifference(
          'constant',
          { code: 'varying' },
          { code: 'one-value' }
        );
    }
  }

  /** Whether two drawn series hold the same data within the tolerance rule. */
  export function sameData(x: IDataDigest, y: IDataDigest): boolean {
    if (x.n !== y.n) {
      return false;
    }
    if (!x.samples || !y.samples) {
      return true;
    }
    const view = (d: IDataDigest): IValueView => ({
      shape: [d.n ?? 0],
      table: [d.n ?? 0, 1],
      columns: [{ ...d, name: null } as IColumnDigest],
      names: false,
      index: null,
      positions: []
    });
    return viewsAgree(view(x), view(y));
  }

  /** Python number types compare as one class. */
  const NUMBERS = new Set([
    'builtins.int',
    'builtins.float',
    'numpy.float64',
    'numpy.float32',
    'numpy.float16',
    'numpy.int64',
    'numpy.int32',
    'numpy.int16',
    'numpy.int8',
    'numpy.uint64',
    'numpy.uint32',
    'numpy.uint16',
    'numpy.uint8'
  ]);

  export function typeClass(s: IValueSummary): string {
    if (NUMBERS.has(s.type)) {
      return 'number';
    }
    return s.type === 'module' ? `module ${String(s.name)}` : s.type;
  }

  /** 'float64' → 'float', 'datetime64[ns]' → 'datetime'. */
  function dtypeKind(d: unknown): string {
    return typeof d === 'string' ? d.replace(/\d.*$/, '') : '';
  }

  function same(a: unknown, b: unknown): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  export function structure(
    e: IValueSummary,
    a: IValueSummary
  ): IValueDifference | null {
    if (!same(e.shape, a.shape)) {
      return makeDifference(
        'shape',
        { code: 'shape', shape: e.shape },
        { code: 'shape', shape: a.shape }
      );
    }
    if (dtypeKind(e.dtype) !== dtypeKind(a.dtype)) {
      return makeDifference(
        'dtype',
        { code: 'dtype', dtype: e.dtype },
        { code: 'dtype', dtype: a.dtype }
      );
    }
    if (Array.isArray(e.columns) || Array.isArray(a.columns)) {
      const ce = new Set((e.columns as string[] | undefined) ?? []);
      const ca = new Set((a.columns as string[] | undefined) ?? []);
      const missing = [...ce].filter(c => !ca.has(c));
      const extra = [...ca].filter(c => !ce.has(c));
      if (missing.length || extra.length) {
        return makeDifference(
          'columns',
          missing.length
            ? { code: 'columns', columns: missing }
            : { code: 'no-more-columns' },
          extra.length
            ? { code: 'extra-columns', columns: extra }
            : { code: 'not-there' }
        );
      }
    }
    for (const key of ['fitted', 'built', 'weights', 'params'] as const) {
      if (e[key] !== undefined && !same(e[key], a[key])) {
        return makeDifference(
          'fitted',
          { code: 'attribute', key, value: e[key] },
          { code: 'attribute', key, value: a[key] }
        );
      }
    }
    return null;
  }

  /** A constant value where the reference's varies: a made-up placeholder. */
  export function constancy(
    e: IValueSummary,
    a: IValueSummary
  ): IValueDifference | null {
    const varies = (s: IValueSummary) =>
      s.constant === false ||
      (isObject(s.numeric) && s.numeric.constant === false);
    const constant = (s: IValueSummary) =>
      s.constant === true ||
      (isObject(s.numeric) && s.numeric.constant === true);
    if (varies(e) && constant(a)) {
      return makeDifference(
        'constant',
        { code: 'varying' },
        { code: 'one-value' }
      );
    }
    return null;
  }

  function close(x: unknown, y: unknown): boolean {
    if (typeof x === 'number' && typeof y === 'number') {
      return closeNumbers(x, y);
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      return x.length === y.length && x.every((v, i) => close(v, y[i]));
    }
    if (isObject(x) && isObject(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      return [...keys].every(k => close(x[k], y[k]));
    }
    return same(x, y);
  }

  /** Keys that carry values, compared within tolerance. */
  const VALUE_KEYS = [
    'value',
    'len',
    'hash',
    'sum',
    'abs',
    'min',
    'max',
    'nan',
    'size',
    'numeric',
    'other'
  ];

  export function values(
    e: IValueSummary,
    a: IValueSummary
  ): IValueDifference | null {
    for (const key of VALUE_KEYS) {
      if (!close(e[key], a[key])) {
        return makeDifference('value', valueSide(e), valueSide(a));
      }
    }
    return constancy(e, a);
  }

  function valueSide(s: IValueSummary): ValueSide {
    if (s.value !== undefined) {
      return { code: 'value', value: s.value };
    }
    const stats = isObject(s.numeric) ? s.numeric : s;
    if (stats.sum !== undefined) {
      return { code: 'stats', sum: stats.sum, min: stats.min, max: stats.max };
    }
    if (s.len !== undefined) {
      return { code: 'length', len: s.len };
    }
    return { code: 'other-values' };
  }
}
