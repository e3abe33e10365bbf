/**
 * Scoring a tool's predictions against a casebook: the ground truth from the
 * casebook's descriptor (the library from the case name, the crash type, root
 * cause and pipeline stage from its labels) and the crash location from the
 * reproduced notebook, the labels compared as the self-diagnosis compares them
 * (`normaliseLabel`), and per dimension the accuracy, the macro-F1, per-label
 * precision and recall, the confusion matrix and bootstrap intervals. Pure logic.
 */
import { LIBRARY_LABELS } from '../casebook/library';
import type { ICase, ICasebook, Library } from '../casebook/types';
import { findTarget } from '../replay/plan';
import type { INotebookJSON } from '../replay/types';
import { diagnosisChoices, normaliseLabel } from '../repair/selfDiagnosis';
import { SCORE_DIMENSIONS } from './messages';
import type { ScoreDimension, ScoreWarning } from './messages';
import {
  accuracy,
  bootstrapInterval,
  confusionMatrix,
  macroF1,
  NONE,
  OTHER,
  perLabel
} from './metrics';
import type { IBootstrapOptions, ILabelMetrics, IOutcome } from './metrics';
import type { IPredictionRow } from './predictions';

/** Where a case's reproduced notebook crashes, and how its cells can be named. */
export interface ICrashLocation {
  /** Every cell of the notebook: its id and its execution count. */
  cells: { id: string | null; executionCount: number | null }[];
  /** The 0-based index, among all cells, of the crashing cell (as the replay finds it). */
  cellIndex: number;
  /** The 1-based crashing line in that cell, when the traceback says. */
  line: number | null;
}

/** One case of the ground truth. */
export interface ITruthCase {
  /** Case name. */
  name: string;
  /** Its label per dimension as the casebook spells it ('' when the casebook has none). */
  labels: Record<ScoreDimension, string>;
  /** Whether it is a notebook-specific case. */
  notebookSpecific: boolean;
  /** Whether a repair of it can be graded (reproduced and fixed notebooks present). */
  gradable: boolean;
  /** Where its reproduced notebook crashes (null without one, or without a crash in it). */
  location: ICrashLocation | null;
}

/** The ground truth of a casebook. */
export interface IGroundTruth {
  /** The cases of the descriptor, in its order. */
  cases: ITruthCase[];
  /** Each dimension's label set: the distinct labels of the cases, as the casebook spells them. */
  labels: Record<ScoreDimension, string[]>;
}

/** The confusion matrix of a dimension. */
export interface IConfusion {
  /** The true labels, one per row. */
  actual: string[];
  /** The predicted labels, one per column: the label set, then NO_PREDICTION and OTHER_LABEL. */
  predicted: string[];
  /** `counts[i][j]`: cases with label `actual[i]` predicted as `predicted[j]`. */
  counts: number[][];
}

/** The score of one dimension. */
export interface IDimensionScore {
  /** Share of the cases predicted right (null when no case has a label). */
  accuracy: number | null;
  /** Mean F1 over the label set (see `macroF1`). */
  macroF1: number | null;
  /** Bootstrap interval of the accuracy. */
  accuracyCI: [number, number] | null;
  /** Bootstrap interval of the macro-F1. */
  macroF1CI: [number, number] | null;
  /** Precision, recall, F1, support and predictions per label. */
  perLabel: Record<string, ILabelMetrics>;
  /** The confusion matrix. */
  confusion: IConfusion;
}

/** The score of the crash location (the cell, or the line). */
export interface ILocalisationScore {
  /** Share of the scored cases located right (null when none can be scored). */
  accuracy: number | null;
  /** Bootstrap interval of the accuracy. */
  accuracyCI: [number, number] | null;
  /** Cases located right. */
  correct: number;
  /** Cases scored: those whose reproduced notebook has a crash (and, for the line, a known line). */
  n: number;
}

/** The scores of one tool. */
export interface IToolScore {
  /** The tool's name (its file's base name). */
  name: string;
  /** The predictions file. */
  file: string;
  /** The cases of the ground truth. */
  n: number;
  /** Per dimension. */
  dimensions: Record<ScoreDimension, IDimensionScore>;
  /** The crashing cell, and the crashing line in it. */
  localisation: { cell: ILocalisationScore; line: ILocalisationScore };
  /** What was left out or not understood: about the whole file, then by row, then the cases without a prediction. */
  warnings: ScoreWarning[];
}

/** The column of the confusion matrix for cases without a prediction. */
export const NO_PREDICTION = '(no prediction)';

/** The column of the confusion matrix for predicted labels outside the label set. */
export const OTHER_LABEL = '(other label)';

/** The default bootstrap: 1000 resamples, seed 38, 95% intervals. */
export const DEFAULT_BOOTSTRAP: Readonly<IBootstrapOptions> = {
  resamples: 1000,
  seed: 38,
  confidence: 0.95
};

/**
 * Where a reproduced notebook crashes: the crashing cell as the replay finds
 * it (`findTarget`) and its line; null when the notebook holds no error.
 */
export function crashLocation(nb: INotebookJSON): ICrashLocation | null {
  const target = findTarget(nb);
  if (target === null) {
    return null;
  }
  return {
    cells: nb.cells.map(cell => ({
      id: typeof cell.id === 'string' ? cell.id : null,
      executionCount:
        typeof cell.execution_count === 'number' ? cell.execution_count : null
    })),
    cellIndex: target.cellIndex,
    line: target.line
  };
}

/**
 * The ground truth of a casebook: its descriptor's cases (folders without a
 * descriptor row have no labels and are left out) with the crash locations
 * found in their reproduced notebooks (`locations`, by case name).
 */
export function groundTruth(
  book: Pick<ICasebook, 'cases'>,
  locations: ReadonlyMap<string, ICrashLocation | null> = new Map()
): IGroundTruth {
  const described = book.cases.filter(c =>
    c.markers.every(m => m.code !== 'not-in-descriptor')
  );
  const choices = diagnosisChoices(described);
  const libraries = [...new Set(described.map(c => c.library))];
  return {
    cases: described.map(c => Private.truthCase(c, locations)),
    labels: {
      library: libraries,
      crashType: choices.crashType,
      rootCause: choices.rootCause,
      stage: choices.pipelineStage
    }
  };
}

/**
 * Score one tool's predictions (read by `parsePredictions`; `warnings` are
 * the reading's own) against the ground truth. A case without a prediction,
 * or with an empty or unknown label, counts as wrong; the first prediction of
 * a case counts; every prediction left out or not understood is named.
 */
export function scoreTool(
  truth: IGroundTruth,
  tool: {
    name: string;
    file: string;
    rows: readonly IPredictionRow[];
    warnings?: readonly ScoreWarning[];
  },
  bootstrap: IBootstrapOptions = DEFAULT_BOOTSTRAP
): IToolScore {
  const { file } = tool;
  const warnings: ScoreWarning[] = [...(tool.warnings ?? [])];
  const byCase = Private.matchCases(truth, tool.rows, file, warnings);
  const lookups = Private.lookups(truth);
  const outcomes: Record<ScoreDimension, IOutcome[]> = {
    library: [],
    crashType: [],
    rootCause: [],
    stage: []
  };
  const cells: boolean[] = [];
  const unlocated: string[] = [];
  const lines: boolean[] = [];
  for (const c of truth.cases) {
    const row = byCase.get(c.name) ?? null;
    for (const dimension of SCORE_DIMENSIONS) {
      const actual = lookups[dimension].get(
        normaliseLabel(c.labels[dimension])
      );
      if (actual === undefined) {
        continue;
      }
      const said = row?.[dimension] ?? null;
      let predicted = NONE;
      if (said !== null) {
        predicted = lookups[dimension].get(normaliseLabel(said)) ?? OTHER;
        if (predicted === OTHER) {
          warnings.push({
            code: 'unknown-label',
            file,
            row: row!.row,
            case: c.name,
            dimension,
            label: said
          });
        }
      }
      outcomes[dimension].push({ actual, predicted });
    }
    const located = Private.locate(c, row, file, warnings);
    if (located === null && (row?.cell ?? row?.line ?? null) !== null) {
      unlocated.push(c.name);
    }
    if (located !== null) {
      cells.push(located.cell);
      if (located.line !== null) {
        lines.push(located.line);
      }
    }
  }
  const missing = truth.cases.filter(c => !byCase.has(c.name)).map(c => c.name);
  if (unlocated.length > 0) {
    warnings.push({ code: 'no-notebook', file, cases: unlocated });
  }
  if (missing.length > 0) {
    warnings.push({ code: 'no-prediction', file, cases: missing });
  }
  // In the file's order: those about the whole file first, the missing cases last.
  const at = (w: ScoreWarning): number =>
    'row' in w ? w.row : 'cases' in w ? Infinity : 0;
  warnings.sort((a, b) => at(a) - at(b));
  const dimensions = {} as Record<ScoreDimension, IDimensionScore>;
  for (const dimension of SCORE_DIMENSIONS) {
    dimensions[dimension] = Private.dimensionScore(
      outcomes[dimension],
      truth.labels[dimension],
      bootstrap
    );
  }
  return {
    name: tool.name,
    file,
    n: truth.cases.length,
    dimensions,
    localisation: {
      cell: Private.localisationScore(cells, bootstrap),
      line: Private.localisationScore(lines, bootstrap)
    },
    warnings
  };
}

/**
 * Resolve a cell as a prediction names it against a notebook's cells: a cell
 * id first, then `[n]` or `In [n]` for the cell that ran with execution count
 * n, then a whole number for the 0-based index among all cells; null when no
 * cell matches.
 */
export function resolveCell(
  location: Pick<ICrashLocation, 'cells'>,
  cell: string
): number | null {
  const text = cell.trim();
  const byId = location.cells.findIndex(c => c.id !== null && c.id === text);
  if (byId >= 0) {
    return byId;
  }
  const count = /^(?:in\s*)?\[\s*(\d+)\s*\]:?$/i.exec(text);
  if (count) {
    const at = location.cells.findIndex(
      c => c.executionCount === Number(count[1])
    );
    return at >= 0 ? at : null;
  }
  if (/^\d+$/.test(text)) {
    const index = Number(text);
    return index < location.cells.length ? index : null;
  }
  return null;
}

/**
 * The first item of each case of the ground truth, in order; `caseOf` finds an
 * item's case (undefined when it has none), and the items of no case and
 * those after their case's first are handed to `unknown` and `again`.
 */
export function firstPerCase<T>(
  items: readonly T[],
  caseOf: (item: T) => ITruthCase | undefined,
  left: {
    unknown: (item: T) => void;
    again: (item: T, first: T, c: ITruthCase) => void;
  }
): Map<string, T> {
  const first = new Map<string, T>();
  for (const item of items) {
    const c = caseOf(item);
    if (c === undefined) {
      left.unknown(item);
      continue;
    }
    const earlier = first.get(c.name);
    if (earlier !== undefined) {
      left.again(item, earlier, c);
      continue;
    }
    first.set(c.name, item);
  }
  return first;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * A case of the ground truth.
   */
  export function truthCase(
    c: ICase,
    locations: ReadonlyMap<string, ICrashLocation | null>
  ): ITruthCase {
    return {
      name: c.name,
      labels: {
        library: c.library,
        crashType: c.crashType.trim(),
        rootCause: c.rootCause.trim(),
        stage: c.pipelineStage.trim()
      },
      notebookSpecific: c.notebookSpecific,
      gradable: c.files.reproduced && c.files.fixed,
      location: locations.get(c.name) ?? null
    };
  }

  /**
   * Per dimension, the index of each label keyed by its normalised form; a
   * library is also known by its display name (`scikit-learn` for `sklearn`).
   */
  export function lookups(
    truth: IGroundTruth
  ): Record<ScoreDimension, Map<string, number>> {
    const result = {} as Record<ScoreDimension, Map<string, number>>;
    for (const dimension of SCORE_DIMENSIONS) {
      result[dimension] = new Map(
        truth.labels[dimension].map((label, i) => [normaliseLabel(label), i])
      );
    }
    truth.labels.library.forEach((library, i) => {
      const display = LIBRARY_LABELS[library as Library];
      if (display !== undefined) {
        result.library.set(normaliseLabel(display), i);
      }
    });
    return result;
  }

  /**
   * Each case's prediction (the first for the case), naming the rows that
   * name no case, an unknown case or a case already predicted.
   */
  export function matchCases(
    truth: IGroundTruth,
    rows: readonly IPredictionRow[],
    file: string,
    warnings: ScoreWarning[]
  ): Map<string, IPredictionRow> {
    const names = new Map(truth.cases.map(c => [normaliseLabel(c.name), c]));
    return firstPerCase(
      rows,
      row =>
        row.case === null ? undefined : names.get(normaliseLabel(row.case)),
      {
        unknown: row =>
          warnings.push(
            row.case === null
              ? { code: 'no-case', file, row: row.row }
              : { code: 'unknown-case', file, row: row.row, case: row.case }
          ),
        again: (row, first, c) =>
          warnings.push({
            code: 'duplicate-case',
            file,
            row: row.row,
            case: c.name,
            first: first.row
          })
      }
    );
  }

  /**
   * Whether a case's crashing cell, and its line, were predicted right (line
   * null when the notebook does not tell the line); null when the case has no
   * crash location to score (the caller names the cases predicted anyway).
   */
  export function locate(
    c: ITruthCase,
    row: IPredictionRow | null,
    file: string,
    warnings: ScoreWarning[]
  ): { cell: boolean; line: boolean | null } | null {
    const location = c.location;
    if (location === null) {
      return null;
    }
    let cell = false;
    if (row && row.cell !== null) {
      const index = resolveCell(location, row.cell);
      if (index === null) {
        warnings.push({
          code: 'unknown-cell',
          file,
          row: row.row,
          case: c.name,
          cell: row.cell
        });
      }
      cell = index === location.cellIndex;
    }
    let lineRight = false;
    if (row && row.line !== null) {
      if (/^\d+$/.test(row.line) && Number(row.line) >= 1) {
        lineRight = cell && Number(row.line) === location.line;
      } else {
        warnings.push({
          code: 'bad-line',
          file,
          row: row.row,
          case: c.name,
          value: row.line
        });
      }
    }
    return { cell, line: location.line === null ? null : lineRight };
  }

  /**
   * The score of one dimension from its outcomes.
   */
  export function dimensionScore(
    outcomes: IOutcome[],
    labels: string[],
    bootstrap: IBootstrapOptions
  ): IDimensionScore {
    const k = labels.length;
    const metrics = perLabel(outcomes, k);
    return {
      accuracy: accuracy(outcomes),
      macroF1: macroF1(outcomes, k),
      accuracyCI: bootstrapInterval(outcomes, accuracy, bootstrap),
      macroF1CI: bootstrapInterval(
        outcomes,
        sample => macroF1(sample, k),
        bootstrap
      ),
      perLabel: Object.fromEntries(labels.map((l, i) => [l, metrics[i]])),
      confusion: {
        actual: [...labels],
        predicted: [...labels, NO_PREDICTION, OTHER_LABEL],
        counts: confusionMatrix(outcomes, k)
      }
    };
  }

  /**
   * The score of a localisation from whether each scored case was right.
   */
  export function localisationScore(
    right: boolean[],
    bootstrap: IBootstrapOptions
  ): ILocalisationScore {
    const share = (sample: readonly boolean[]): number | null =>
      sample.length ? sample.filter(Boolean).length / sample.length : null;
    return {
      accuracy: share(right),
      accuracyCI: bootstrapInterval(right, share, bootstrap),
      correct: right.filter(Boolean).length,
      n: right.length
    };
  }
}
