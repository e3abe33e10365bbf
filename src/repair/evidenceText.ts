/**
 * The findings' words for how a value differs from the reference's: the
 * aspect and the two sides of a difference, as codes with parameters that
 * the comparison produces (`evidence.ts`), rendered here in English or
 * translated. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import { describeSummary, showValue } from '../state/values';
import type { IValueSummary } from '../state/values';

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
        ? __('columns %1', list(side.columns))
        : __('column %1', list(side.columns));
    case 'no-more-columns':
      return __('no more columns');
    case 'extra-columns':
      return side.columns.length > 1
        ? __('extra columns %1', list(side.columns))
        : __('extra column %1', list(side.columns));
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
      return __('labels %1', list(side.labels));
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

/** A list of names for a sentence, at most eight of them. */
function list(names: string[]): string {
  return names.length > 8
    ? `${names.slice(0, 8).join(', ')}, … (${names.length})`
    : names.join(', ');
}
