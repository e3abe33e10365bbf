/**
 * Value summaries: what the kernel-side probe tells of a value (type, shape,
 * dtype, columns, fitted or not, a value or digests of its values), and how
 * people read one. The one home of summaries for the repair check, the state
 * timeline, the State view and `junobench explain`. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';

/** How a name changed across a cell. */
export type ChangeKind = 'created' | 'rebound' | 'mutated' | 'deleted';

/** A summary of a value: its type plus what the probe could tell cheaply. */
export interface IValueSummary {
  /** `module.QualName` of the type ('module' for modules). */
  type: string;
  [key: string]: unknown;
}

/**
 * A number, list or text as a short string: numbers to 6 significant digits,
 * lists in parentheses.
 */
export function showValue(v: unknown): string {
  if (typeof v === 'number') {
    return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  }
  if (Array.isArray(v)) {
    return `(${v.map(showValue).join(', ')})`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
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
    parts.push(`= ${showValue(s.value)}`);
  }
  return parts.join(' ');
}

/**
 * A type's name as people know it: `list` for `builtins.list`,
 * `pandas.DataFrame` for `pandas.core.frame.DataFrame`.
 */
export function typeLabel(type: string): string {
  if (type.startsWith('builtins.')) {
    return type.slice('builtins.'.length);
  }
  const pandas = /^pandas\.core\.[\w.]*\.(\w+)$/.exec(type);
  if (pandas) {
    return `pandas.${pandas[1]}`;
  }
  return type;
}
