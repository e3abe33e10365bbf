/**
 * The check's evidence compared: which units of a traced cell ran, which
 * exceptions it swallowed, what the reference's runs hold a repair to, and how
 * a learner's values, inputs, figures and effects differ from the reference's
 * (read in `probeReport.ts`, worded in `evidenceText.ts`). Pure logic.
 */
import type { IValueSummary } from '../state/values';
import { codeTokens, dice } from './align';
import { closeNumbers, compareViews, viewsAgree } from './compare';
import type {
  IColumnDigest,
  IRoundingEvidence,
  IValueView,
  ValueNote,
  ViewDifference
} from './compare';
import { renderValueSide } from './evidenceText';
import type { DifferenceAspect, ValueSide } from './evidenceText';
import { isRecord } from './probeReport';
import type {
  CompareMode,
  EffectRole,
  IDataDigest,
  IEffectReport,
  IFigureSummary,
  IPerturbedEvidence,
  IProbeReport,
  IReferenceEffect,
  IReferenceEvidence,
  ITracedException,
  ITraceReport,
  IUnit,
  StatementSpan
} from './probeReport';

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
  const wanted = codeTokens(statement);
  let best: { unit: IUnit; score: number } | null = null;
  for (const unit of holding) {
    const score = wanted.length
      ? dice(wanted, codeTokens(unit.text))
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
 * or one kept in another container (the results it leads to decide).
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
 * consumed itself may be missing or kept in another container (a note: the results it led to
 * are compared); the figures it drew are compared.
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
    if (cmp.difference?.aspect === 'type' && ref.role === 'intermediate') {
      // Only used on the way to the results, which are compared themselves: kept in another
      // container (a dict of weights, a range) it is noted. Other values are not: a name the
      // cell's own code reads later (`new_patients`, built and then shown) is an intermediate
      // too.
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

  export function isEffect(
    v: IEffectReport | Record<string, IValueSummary>
  ): v is IEffectReport {
    return isRecord(v.after) && isRecord(v.changes);
  }

  /** A summary's view, when it has a usable one. */
  export function viewOf(s: IValueSummary): IValueView | null {
    const v = s.view;
    if (
      !isRecord(v) ||
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

  export function structure(
    e: IValueSummary,
    a: IValueSummary
  ): IValueDifference | null {
    if (!sameJSON(e.shape, a.shape)) {
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
      if (e[key] !== undefined && !sameJSON(e[key], a[key])) {
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
      (isRecord(s.numeric) && s.numeric.constant === false);
    const constant = (s: IValueSummary) =>
      s.constant === true ||
      (isRecord(s.numeric) && s.numeric.constant === true);
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
    if (isRecord(x) && isRecord(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      return [...keys].every(k => close(x[k], y[k]));
    }
    return sameJSON(x, y);
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
    const stats = isRecord(s.numeric) ? s.numeric : s;
    if (stats.sum !== undefined) {
      return { code: 'stats', sum: stats.sum, min: stats.min, max: stats.max };
    }
    if (s.len !== undefined) {
      return { code: 'length', len: s.len };
    }
    return { code: 'other-values' };
  }
}
