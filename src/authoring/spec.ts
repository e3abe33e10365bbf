/**
 * The case spec handed to the one writer of cases (the Python module
 * `jupyterlab_junobench.authoring`, behind `POST /junobench/authoring/case`
 * and `junobench add`): notebooks, descriptor row, diagnosis, data paths and
 * the draft reason. Pure logic.
 */

import { libraryOf } from '../casebook/library';
import { nameProblem } from '../casebook/paths';
import type { NameProblem } from '../casebook/paths';
import type { ICase, IDataset } from '../casebook/types';
import type { INotebookJSON, ITarget } from '../replay/types';

/** The labels of a case, as the descriptor's label columns hold them. */
export interface ICaseLabels {
  /** `label_root_cause`. */
  rootCause: string;
  /** `label_refined_exp_type`. */
  crashType: string;
  /** `label_ML_pipeline`. */
  pipelineStage: string;
  /** `label_if_ML_bug`. */
  mlBug: string;
}

/** What the author says about a new case, besides its notebooks. */
export interface ICaseDescription {
  /** The labels. */
  labels: ICaseLabels;
  /** The library (diagnoses.xlsx `library`); default: from the case name. */
  library?: string;
  /** The written diagnosis. */
  diagnosis: string;
  /** Dataset credits. */
  datasets: IDataset[];
  /** Where the notebook comes from. */
  notebookUrl?: string;
}

/** The descriptor row of a case spec (the writer's column names). */
export interface ISpecRow {
  ename: string;
  evalue: string;
  traceback: string[];
  label_root_cause: string;
  label_refined_exp_type: string;
  label_ML_pipeline: string;
  label_if_ML_bug: string;
  datasets: IDataset[];
  NotebookUrl: string;
}

/** A case spec, as the writer reads it (JSON). */
export interface ICaseSpec {
  /** Case name. */
  case: string;
  /** Replace an existing case of that name. */
  update: boolean;
  /** The notebooks to write. */
  notebooks: {
    original: INotebookJSON;
    reproduced: INotebookJSON;
    fixed: INotebookJSON | null;
  };
  /** Input files, relative to the notebook's folder (kept relative in the case folder). */
  data: string[];
  /** The descriptor row. */
  row: ISpecRow;
  /** diagnoses.xlsx `library`. */
  library: string;
  /** The written diagnosis. */
  diagnosis: string;
  /** README.md text; null for the template (an existing README is kept). */
  readme: string | null;
  /** Why the case is a draft (DRAFT.md), or null. */
  draft: string | null;
}

/** The draft reason of a case written before its verification ran. */
export const NOT_VERIFIED_YET =
  'It has not been verified yet (the verification did not finish).';

/**
 * Build the spec of a case from its notebooks, its crash and what the author
 * said; the case starts as a draft until its verification passes.
 */
export function caseSpec(options: caseSpec.IOptions): ICaseSpec {
  const { target, description } = options;
  return {
    case: options.name,
    update: options.update ?? false,
    notebooks: {
      original: options.original,
      reproduced: options.reproduced,
      fixed: options.fixed ?? null
    },
    data: options.data ?? [],
    row: {
      // JunoBench writes exception names in lower case.
      ename: target.ename.toLowerCase(),
      evalue: target.evalue,
      traceback: target.traceback,
      label_root_cause: description.labels.rootCause,
      label_refined_exp_type: description.labels.crashType,
      label_ML_pipeline: description.labels.pipelineStage,
      label_if_ML_bug: description.labels.mlBug,
      datasets: description.datasets.filter(
        d => d.title !== '' || d.license !== '' || d.url !== ''
      ),
      NotebookUrl: description.notebookUrl ?? ''
    },
    library: description.library || libraryOf(options.name),
    diagnosis: description.diagnosis,
    readme: null,
    draft: NOT_VERIFIED_YET
  };
}

/**
 * Options of caseSpec.
 */
export namespace caseSpec {
  /**
   * What a case spec is built from.
   */
  export interface IOptions {
    /** Case name. */
    name: string;
    /** The notebook as it stands. */
    original: INotebookJSON;
    /** The reproduced notebook (the recorded order in its counts). */
    reproduced: INotebookJSON;
    /** The reference fix, if any. */
    fixed?: INotebookJSON | null;
    /** The crash recorded. */
    target: ITarget;
    /** Labels, diagnosis, datasets. */
    description: ICaseDescription;
    /** Input files relative to the notebook's folder. */
    data?: string[];
    /** Replace an existing case. */
    update?: boolean;
  }
}

/** Why a new case's name cannot be used, as a code with parameters. */
export type CaseNameProblem =
  { code: 'unsafe'; problem: NameProblem } | { code: 'exists'; row: number };

/**
 * Check a new case name with the loader's rules and against the casebook's
 * cases (an existing one needs `update`); null when it can be used.
 */
export function caseNameProblem(
  name: string,
  cases: readonly Pick<ICase, 'name' | 'row'>[],
  update = false
): CaseNameProblem | null {
  const unsafe = nameProblem(name);
  if (unsafe !== null) {
    return { code: 'unsafe', problem: unsafe };
  }
  const existing = cases.find(c => c.name === name);
  if (existing && !update) {
    return { code: 'exists', row: existing.row };
  }
  return null;
}

/** The label sets of a casebook: the distinct values of each label, sorted. */
export interface ILabelSets {
  /** Root causes. */
  rootCause: string[];
  /** Crash types. */
  crashType: string[];
  /** Pipeline stages. */
  pipelineStage: string[];
  /** ML bug or not. */
  mlBug: string[];
  /** Libraries (from the case names). */
  library: string[];
}

/**
 * The choices a case form offers: each label's distinct values in the
 * casebook (free entry stays allowed).
 */
export function labelSets(cases: readonly ICase[]): ILabelSets {
  const distinct = (pick: (c: ICase) => string): string[] =>
    [...new Set(cases.map(pick).filter(v => v.trim() !== ''))].sort((a, b) =>
      a.localeCompare(b)
    );
  return {
    rootCause: distinct(c => c.rootCause),
    crashType: distinct(c => c.crashType),
    pipelineStage: distinct(c => c.pipelineStage),
    mlBug: distinct(c => c.mlBug),
    library: distinct(c => c.library).filter(l => l !== 'unknown')
  };
}

/** The label keys `--label key=value` accepts, with their aliases. */
export const LABEL_KEYS: Readonly<
  Record<string, keyof ICaseLabels | 'library' | 'notebookUrl'>
> = {
  root_cause: 'rootCause',
  label_root_cause: 'rootCause',
  crash_type: 'crashType',
  label_refined_exp_type: 'crashType',
  pipeline: 'pipelineStage',
  pipeline_stage: 'pipelineStage',
  label_ml_pipeline: 'pipelineStage',
  ml_bug: 'mlBug',
  label_if_ml_bug: 'mlBug',
  library: 'library',
  notebook_url: 'notebookUrl',
  notebookurl: 'notebookUrl'
};

/**
 * Read `key=value` label arguments into a description's labels, library and
 * notebook URL; throws an Error naming the bad argument.
 */
export function parseLabelArgs(args: readonly string[]): {
  labels: ICaseLabels;
  library: string;
  notebookUrl: string;
} {
  const out = {
    labels: { rootCause: '', crashType: '', pipelineStage: '', mlBug: '' },
    library: '',
    notebookUrl: ''
  };
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const key = eq < 0 ? '' : arg.slice(0, eq).trim().toLowerCase();
    const field = LABEL_KEYS[key];
    if (eq < 0 || field === undefined) {
      throw new Error(
        `--label ${JSON.stringify(arg)}: expected key=value with key one of ${Object.keys(LABEL_KEYS).join(', ')}`
      );
    }
    const value = arg.slice(eq + 1).trim();
    if (field === 'library' || field === 'notebookUrl') {
      out[field] = value;
    } else {
      out.labels[field] = value;
    }
  }
  return out;
}

/**
 * The next free case name for a library (`NBspecific_4` after `NBspecific_3`).
 */
export function suggestName(
  cases: readonly Pick<ICase, 'name'>[],
  library = 'NBspecific'
): string {
  const prefix = `${library}_`;
  const taken = new Set(cases.map(c => c.name));
  let n = 1 + cases.filter(c => c.name.startsWith(prefix)).length;
  while (taken.has(`${prefix}${n}`)) {
    n++;
  }
  return `${prefix}${n}`;
}

/**
 * Relative file paths a notebook's code names in string literals
 * (`pd.read_csv("data/train.csv")`), in order of appearance: the input files
 * to offer for copying (the caller keeps those that exist). URLs, absolute
 * paths and paths climbing with `..` are left out.
 */
export function dataCandidates(nb: INotebookJSON): string[] {
  const found = new Set<string>();
  const literal = /(["'])((?:(?!\1)[^\\\n])+)\1/g;
  for (const cell of nb.cells) {
    if (cell.cell_type !== 'code') {
      continue;
    }
    const text = Array.isArray(cell.source)
      ? cell.source.join('')
      : cell.source;
    for (const match of text.matchAll(literal)) {
      const path = match[2].trim().replace(/^\.\//, '');
      if (
        /^[\w.\- /]+\.[A-Za-z0-9]{1,8}$/.test(path) &&
        !path.startsWith('/') &&
        !path.split('/').includes('..') &&
        !/^[a-z]+:/i.test(path)
      ) {
        found.add(path);
      }
    }
  }
  return [...found];
}
