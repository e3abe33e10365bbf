/**
 * The evidence of a repair check: what the kernel-side probe saw of one cell
 * (the lines that ran, the exceptions raised in it, caught ones included) and
 * of the state (what the cell created, rebound or mutated), read from its JSON
 * report, and the rules that compare it with the reference fix. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';

/** A statement's first and last line and its kind ('String' for a bare string literal). */
export type StatementSpan = [number, number, string];

/** An exception seen in a traced cell's frames. */
export interface ITracedException {
  /** Exception class name. */
  ename: string;
  /** Its message, shortened. */
  evalue: string;
  /** The cell line it passed through first. */
  line: number;
}

/** What the tracer saw of one cell. */
export interface ITraceReport {
  /** Lines of the cell that ran (1-based, any frame of the cell's code). */
  lines: number[];
  /** Exceptions raised in or through the cell's frames, in order. */
  exceptions: ITracedException[];
  /** Statements of the cell's code. */
  spans: StatementSpan[];
  /** Lines inside multi-line string literals. */
  stringLines: number[];
}

/** How a name changed across a cell. */
export type ChangeKind = 'created' | 'rebound' | 'mutated' | 'deleted';

/** A summary of a value: its type plus what the probe could tell cheaply. */
export interface IValueSummary {
  /** `module.QualName` of the type ('module' for modules). */
  type: string;
  [key: string]: unknown;
}

/** What a cell did to the user namespace. */
export interface IEffectReport {
  /** Names the cell created, rebound, mutated or deleted. */
  changes: Record<string, ChangeKind>;
  /** Every user name's summary after the cell. */
  after: Record<string, IValueSummary>;
}

/** The probe's report for one cell. */
export interface IProbeReport {
  /** Present when the cell was traced. */
  trace: ITraceReport | null;
  /** Present when the namespace was summarised around the cell. */
  effect: IEffectReport | null;
}

/** Exceptions a traced cell may swallow without hiding anything. */
const BENIGN = new Set([
  'StopIteration',
  'StopAsyncIteration',
  'GeneratorExit'
]);

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

/**
 * Exceptions a cell raised and swallowed: every traced exception when the cell
 * finished without error (benign ones left out).
 */
export function swallowedExceptions(
  trace: ITraceReport,
  cellFailed: boolean
): ITracedException[] {
  if (cellFailed) {
    return [];
  }
  return trace.exceptions.filter(e => !BENIGN.has(e.ename));
}

/** Whether a line of a traced cell ran, and what kind of statement holds it. */
export interface ILineEvidence {
  /** The innermost statement holding the line, or null when none does. */
  statement: StatementSpan | null;
  /** Whether any line of that statement ran. */
  executed: boolean;
  /** Whether the line is inside a string literal rather than code. */
  inString: boolean;
}

/**
 * What the trace says of `line` of the cell: whether the innermost statement
 * that holds it ran, and whether it is only text in a string literal.
 */
export function lineEvidence(trace: ITraceReport, line: number): ILineEvidence {
  let statement: StatementSpan | null = null;
  for (const span of trace.spans) {
    if (span[0] <= line && line <= span[1]) {
      if (!statement || span[1] - span[0] < statement[1] - statement[0]) {
        statement = span;
      }
    }
  }
  const ran = new Set(trace.lines);
  const executed = statement
    ? Array.from(
        { length: statement[1] - statement[0] + 1 },
        (_, k) => statement![0] + k
      ).some(l => ran.has(l))
    : ran.has(line);
  const inString =
    trace.stringLines.includes(line) || statement?.[2] === 'String';
  return { statement, executed, inString };
}

/** One name the reference fix's target cell changed. */
export interface IReferenceEffect {
  /** How the reference target changed it. */
  change: ChangeKind;
  /** Its summary after the reference target (first run). */
  summary: IValueSummary;
  /** How strictly a learner's value is compared: see `effectMode`. */
  mode: CompareMode;
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
  /** Names its target cell created, rebound or mutated. */
  effects: Record<string, IReferenceEffect>;
  /** Exception names its traced cells raise and catch themselves. */
  caught: string[];
  /**
   * Names the reference fix's later cells read: a learner may compute other
   * names inline, but these must be there after the target.
   */
  usedLater: string[];
}

/**
 * Combine two reference runs' reports of the target cell (plus the traces of
 * the other cells the fix changed) into what a learner's repair is held to.
 */
export function referenceEvidence(
  first: IProbeReport,
  second: IProbeReport | null,
  otherTraces: ITraceReport[] = [],
  laterCode: string[] = []
): IReferenceEvidence {
  const effects: Record<string, IReferenceEffect> = {};
  const changes = first.effect?.changes ?? {};
  for (const [name, change] of Object.entries(changes)) {
    if (change === 'deleted') {
      continue;
    }
    const summary = first.effect?.after[name];
    if (!summary) {
      continue;
    }
    const other = second?.effect?.after[name];
    let mode: CompareMode = 'type';
    if (other) {
      if (!compareSummaries(summary, other, 'values')) {
        mode = 'values';
      } else if (!compareSummaries(summary, other, 'structure')) {
        mode = 'structure';
      }
    }
    effects[name] = { change, summary, mode };
  }
  const caught = new Set<string>();
  for (const trace of [first.trace, second?.trace ?? null, ...otherTraces]) {
    trace?.exceptions.forEach(e => caught.add(e.ename));
  }
  const words = new Set(laterCode.flatMap(c => c.match(/[A-Za-z_]\w*/g) ?? []));
  const usedLater = Object.keys(effects).filter(n => words.has(n));
  return { effects, caught: [...caught].sort(), usedLater: usedLater.sort() };
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
  | 'value';

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
      key: 'fitted' | 'built' | 'weights' | 'params';
      value: unknown;
    }
  | { code: 'varying' }
  | { code: 'one-value' }
  | { code: 'value'; value: unknown }
  | { code: 'stats'; sum: unknown; min: unknown; max: unknown }
  | { code: 'length'; len: unknown }
  | { code: 'other-values' };

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
  const show = Private.show;
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
        ? __('columns %1', side.columns.join(', '))
        : __('column %1', side.columns.join(', '));
    case 'no-more-columns':
      return __('no more columns');
    case 'extra-columns':
      return side.columns.length > 1
        ? __('extra columns %1', side.columns.join(', '))
        : __('extra column %1', side.columns.join(', '));
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
  }
}

/** The word for a model attribute the check compares. */
function renderAttribute(
  key: 'fitted' | 'built' | 'weights' | 'params',
  __: Translate
): string {
  switch (key) {
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
 * it does not.
 */
export function compareSummaries(
  expected: IValueSummary,
  actual: IValueSummary,
  mode: CompareMode
): IValueDifference | null {
  const typeA = Private.typeClass(expected);
  const typeB = Private.typeClass(actual);
  if (typeA !== typeB) {
    return makeDifference(
      'type',
      { code: 'summary', summary: expected },
      { code: 'summary', summary: actual }
    );
  }
  if (mode === 'type') {
    return null;
  }
  const diff = Private.structure(expected, actual);
  if (diff || mode === 'structure') {
    return diff ?? Private.constancy(expected, actual);
  }
  return Private.values(expected, actual);
}

/** A name whose state after the learner's target differs from the reference's. */
export interface IEffectDifference {
  /** The variable. */
  name: string;
  /** How it differs. */
  difference: IValueDifference;
}

/**
 * Compare the learner's namespace after the target with what the reference's
 * target cell did: every name it created, rebound or mutated that is present
 * must be alike; a missing one fails only when the reference's later cells
 * read it and the reference target created or rebound it (otherwise the
 * learner computed it inline, or under another name nothing else needs).
 */
export function compareEffects(
  reference: IReferenceEvidence,
  learnerAfter: Record<string, IValueSummary>
): IEffectDifference[] {
  const out: IEffectDifference[] = [];
  for (const [name, ref] of Object.entries(reference.effects)) {
    const mine = learnerAfter[name];
    if (!mine) {
      if (ref.change !== 'mutated' && reference.usedLater.includes(name)) {
        out.push({
          name,
          difference: makeDifference(
            'missing',
            { code: 'summary', summary: ref.summary },
            { code: 'not-defined' }
          )
        });
      }
      continue;
    }
    const difference = compareSummaries(ref.summary, mine, ref.mode);
    if (difference) {
      out.push({ name, difference });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A short description of a summarised value, e.g. `numpy.ndarray (30, 4) float64`;
 * its words (module, fitted) translated by `__`, English by default.
 */
export function describeSummary(
  s: IValueSummary,
  __: Translate = english
): string {
  const parts = [
    s.type === 'module' ? __('module %1', String(s.name)) : s.type
  ];
  if (Array.isArray(s.shape)) {
    parts.push(`(${(s.shape as number[]).join(', ')})`);
  }
  if (typeof s.dtype === 'string') {
    parts.push(s.dtype);
  }
  if (typeof s.fitted === 'boolean') {
    parts.push(s.fitted ? __('fitted') : __('not fitted'));
  }
  if (s.value !== undefined) {
    parts.push(`= ${Private.show(s.value)}`);
  }
  return parts.join(' ');
}

namespace Private {
  /** Relative tolerance of value comparisons. */
  const RTOL = 1e-6;

  export function isObject(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  }

  export function readTrace(v: unknown): ITraceReport | null {
    if (!isObject(v) || !Array.isArray(v.lines) || !Array.isArray(v.spans)) {
      return null;
    }
    const exceptions = Array.isArray(v.exceptions)
      ? v.exceptions.filter(isObject).map(e => ({
          ename: String(e.ename ?? ''),
          evalue: String(e.evalue ?? ''),
          line: Number(e.line ?? 0)
        }))
      : [];
    return {
      lines: v.lines.map(Number),
      exceptions,
      spans: v.spans
        .filter(s => Array.isArray(s) && s.length >= 3)
        .map(s => [Number(s[0]), Number(s[1]), String(s[2])] as StatementSpan),
      stringLines: Array.isArray(v.stringLines) ? v.stringLines.map(Number) : []
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
    return { changes, after };
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
      return Math.abs(x - y) <= RTOL * Math.max(1, Math.abs(x), Math.abs(y));
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

  export function show(v: unknown): string {
    if (typeof v === 'number') {
      return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
    }
    if (Array.isArray(v)) {
      return `(${v.map(show).join(', ')})`;
    }
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
}
