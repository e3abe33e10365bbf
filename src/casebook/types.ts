/**
 * Shared types of the casebook layer: what a JunoBench casebook is made of.
 *
 * Pure data; no DOM, no JupyterLab application, no Node-only modules.
 */
import type { NameProblem } from './paths';

/** The library a case belongs to, derived from the case name prefix. */
export type Library =
  | 'NBspecific'
  | 'tensorflow'
  | 'torch'
  | 'torchvision'
  | 'sklearn'
  | 'numpy'
  | 'pandas'
  | 'matplotlib'
  | 'seaborn'
  | 'statsmodels'
  | 'lightgbm'
  | 'unknown';

/** A dataset the case's notebook reads, as credited in the descriptor. */
export interface IDataset {
  /** Dataset title. */
  title: string;
  /** Licence name. */
  license: string;
  /** Where the dataset is published. */
  url: string;
}

/** One row of `benchmark_desc.xlsx`, parsed. */
export interface IDescriptorRow {
  /** `nb_name`: the case name, e.g. `pandas_3`. */
  name: string;
  /** `eid`: the recorded error id. */
  eid: string;
  /** `ename`: recorded exception name as the descriptor spells it (often lower case). */
  ename: string;
  /** `evalue`: recorded exception message. */
  evalue: string;
  /** `traceback`: the recorded traceback lines with ANSI codes removed. */
  traceback: string[];
  /** `label_root_cause`. */
  rootCause: string;
  /** `label_refined_exp_type`: the refined crash type. */
  crashType: string;
  /** `label_ML_pipeline`: the ML pipeline stage. */
  pipelineStage: string;
  /** `label_if_ML_bug`. */
  mlBug: string;
  /** `DatasetTitle_n`, `DatasetLicenseName_n`, `DatasetUrl_n` for the non-empty n. */
  datasets: IDataset[];
  /** `NotebookUrl`. */
  notebookUrl: string;
  /** 1-based spreadsheet row the case came from (header is row 1). */
  row: number;
}

/** Which files of a case folder are present. */
export interface ICaseFiles {
  /** Casebook-relative folder path of the case, or null when no folder was found. */
  folder: string | null;
  /** `<case>.ipynb`, the original notebook. */
  original: boolean;
  /** `<case>_reproduced.ipynb`. */
  reproduced: boolean;
  /** `<case>_fixed.ipynb`. */
  fixed: boolean;
  /** `README.md`. */
  readme: boolean;
  /** Casebook-relative paths of the other files in the folder (data), recursively. */
  data: string[];
}

/** A case of the casebook: descriptor row, derived labels, diagnosis and file status. */
export interface ICase extends IDescriptorRow {
  /** Library derived from the name prefix. */
  library: Library;
  /** True for notebook-specific cases (library NBspecific or root cause "NB specific"). */
  notebookSpecific: boolean;
  /** The written diagnosis, when the casebook ships one. */
  diagnosis: string | null;
  /** Which files are present. */
  files: ICaseFiles;
  /** Human-readable markers of what is missing or wrong with this case, in English (empty when complete). */
  problems: string[];
  /** The same markers as codes with parameters (`renderCaseMarker`), for translated views. */
  markers: CaseMarker[];
}

/** Why a case is incomplete. */
export type CaseMarker =
  | { code: 'folder-not-found' }
  | { code: 'not-in-descriptor' }
  | { code: 'no-reproduced' }
  | { code: 'no-fixed' }
  | { code: 'no-readme' }
  | { code: 'no-data' }
  /** A draft written by authoring that did not verify yet (see its DRAFT.md). */
  | { code: 'draft'; file: string }
  | { code: 'unlisted'; path: string; reason: string }
  | { code: 'refused'; path: string; reason: string }
  | { code: 'too-big'; path: string; size: number; max: number }
  | { code: 'too-many-files'; max: number }
  | { code: 'too-deep'; max: number };

/** What is wrong with a casebook's files. */
export type CasebookMessage =
  | { code: 'root-not-found'; root: string }
  | { code: 'no-descriptor'; file: string; root: string }
  | { code: 'stray-diagnoses'; file: string; names: string[]; more: number }
  | { code: 'unsafe-folder'; path: string }
  | { code: 'unsafe-entry'; name: string; dir: string }
  | { code: 'refused'; path: string; reason: string }
  | { code: 'file-too-big'; file: string; size: number; max: number }
  | { code: 'unlisted'; path: string; reason: string }
  | { code: 'unreadable'; path: string; reason: string }
  | { code: 'not-xlsx'; file: string; reason: string }
  | { code: 'no-header'; file: string; columns: string[] }
  | {
      code: 'missing-columns';
      file: string;
      sheet: string;
      columns: string[];
    }
  | { code: 'unknown-columns'; file: string; columns: string[] }
  | { code: 'repeated-columns'; file: string; columns: string[] }
  | { code: 'row-without-name'; file: string; row: number }
  | {
      code: 'unsafe-case-name';
      file: string;
      row: number;
      name: string;
      why: NameProblem;
    }
  | {
      code: 'repeated-case';
      file: string;
      row: number;
      name: string;
      first: number;
    }
  | {
      code: 'traceback-warning';
      file: string;
      row: number;
      name: string;
      warning: string;
    }
  | { code: 'no-instance-sheet'; file: string }
  | { code: 'no-diagnosis-column'; file: string; sheet: string }
  | {
      code: 'unusable-instance';
      file: string;
      row: number;
      instance: string;
      why: NameProblem;
    }
  | {
      code: 'second-diagnosis';
      file: string;
      row: number;
      name: string;
      first: number;
    };

/** A problem found while loading a casebook; never fatal for the other cases. */
export interface ICasebookProblem {
  /** Casebook-relative file the problem is in (e.g. `benchmark_desc.xlsx`). */
  file: string;
  /** The case concerned, when there is one. */
  case?: string;
  /** What is wrong, in one English sentence. */
  message: string;
  /** The same as a code with parameters (`renderCasebookMessage`), for translated views. */
  why: CasebookMessage;
  /** `error`: something was skipped; `warning`: loaded anyway. */
  severity: 'error' | 'warning';
}

/** A loaded casebook. */
export interface ICasebook {
  /** Display name (the folder name). */
  name: string;
  /** Root path as given to the loader. */
  root: string;
  /** The cases, in descriptor order. */
  cases: ICase[];
  /** Problems met while loading. */
  problems: ICasebookProblem[];
  /** Whether a diagnoses file was found and read. */
  hasDiagnoses: boolean;
}

/** A directory entry as a casebook source reports it. */
export interface ISourceEntry {
  /** Base name. */
  name: string;
  /** Entry kind. */
  type: 'file' | 'directory';
  /** Size in bytes of a file, when the listing tells it without reading the file. */
  size?: number;
  /**
   * Why the entry must not be read, when the source refuses it, as a clause
   * such as `it is a symbolic link to /x, outside the casebook folder /y`; the
   * loader reports `<path> was refused: <reason>` and skips the entry.
   */
  refused?: string;
}

/**
 * Read-only access to a casebook's files, by casebook-relative POSIX paths
 * ('' is the root). Implemented over the Jupyter Contents API (browser) and
 * over the file system (Node CLI).
 */
export interface ICasebookSource {
  /** A display name for the casebook root. */
  readonly rootName: string;
  /** List a directory; resolves null when it does not exist. */
  list(path: string): Promise<ISourceEntry[] | null>;
  /** Read a file's bytes; rejects when missing or unreadable. */
  readBinary(path: string): Promise<ArrayBuffer>;
  /** Read a text file; rejects when missing or unreadable. */
  readText(path: string): Promise<string>;
  /**
   * Size in bytes of a file without reading it; null when the source cannot
   * tell. Optional: sources without it are read without a size check first.
   */
  size?(path: string): Promise<number | null>;
}
