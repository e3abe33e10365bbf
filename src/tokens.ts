/**
 * Tokens and public interfaces of jupyterlab-junobench.
 */
import { Token } from '@lumino/coreutils';
import type { ISignal } from '@lumino/signaling';

import type { ICase, ICasebook } from './casebook/types';
import type { CaseStatus, ICaseProgress } from './progress/types';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from './repair/selfDiagnosis';
import type { RevealPolicy } from './repair/reveal';
import type { IWorkshop } from './workshop/workshop';

/**
 * Holds the casebook the practice room works on.
 */
export interface ICasebookManager {
  /** The loaded casebook, or null while none is loaded. */
  readonly casebook: ICasebook | null;
  /** The server path of the casebook root ('' when none). */
  readonly path: string;
  /** Whether a load is in progress. */
  readonly loading: boolean;
  /** A sentence describing why no casebook is loaded, or null. */
  readonly error: string | null;
  /** Emitted when the casebook, the loading state or the error changes. */
  readonly changed: ISignal<ICasebookManager, void>;
  /** Load the casebook at a server path (`''` = the configured default). */
  load(path?: string): Promise<void>;
  /** Find a case by name in the loaded casebook. */
  find(name: string): ICase | null;
}

/** The casebook manager token. */
export const ICasebookManager = new Token<ICasebookManager>(
  'jupyterlab-junobench:ICasebookManager',
  'The casebook the JunoBench practice room works on.'
);

/** The status of a case for the learner (defined with the progress types, which do not import tokens). */
export type { CaseStatus } from './progress/types';

/**
 * Provides the status badge of each case (wired up by the repair loop).
 */
export interface ICaseStatusProvider {
  /** The status of a case. */
  statusOf(name: string): CaseStatus;
  /** Emitted when any status changes. */
  readonly changed: ISignal<ICaseStatusProvider, void>;
}

/**
 * Opens cases as working copies and replays them.
 */
export interface ICaseOpener {
  /** Open a case's working copy (creating it on first open). */
  open(name: string): Promise<void>;
  /**
   * Start a new working copy of a case from its reproduced notebook and open
   * it; the old copies are saved and kept. Resolves with the new path, or
   * null when it could not be made (the learner was told why).
   */
  reset(name: string): Promise<string | null>;
  /**
   * Start a kernel in the background for the next case opened (when the
   * `warmKernel` setting is on); called when the case list is shown.
   */
  warmUp?(): void;
}

/** The case opener token. */
export const ICaseOpener = new Token<ICaseOpener>(
  'jupyterlab-junobench:ICaseOpener',
  'Opens JunoBench cases as working copies and replays them.'
);

/**
 * Where the learner's progress on the current casebook is kept.
 */
export interface IProgressTracker extends ICaseStatusProvider {
  /** Note that a replay of the case crashed. */
  markCrashed(name: string): Promise<void>;
  /** Keep a repair attempt. */
  recordAttempt(
    name: string,
    attempt: {
      passed: boolean;
      status?: string;
      exception?: string | null;
      snapshotPath?: string | null;
    }
  ): Promise<void>;
  /** The progress record of a case, or null before a casebook is loaded. */
  get(name: string): ICaseProgress | null;
  /** Record that the learner opened a hint step (once per step). */
  recordHint(name: string, step: number): Promise<void>;
  /** Save the learner's prediction of the labels (rejects once the reveal was opened). */
  recordPrediction(name: string, answers: IPredictionAnswers): Promise<void>;
  /** Note that the reveal was opened; the first time, the prediction is scored against the labels. */
  recordReveal(
    name: string,
    labels: Pick<ICase, DiagnosisQuestion>
  ): Promise<void>;
  /** Add time spent on a case, in milliseconds. */
  addTime(name: string, ms: number): Promise<void>;
  /**
   * How the progress backup file on the server stands: its path, whether a
   * change is not in it yet, why the last write failed (while it is retried)
   * and what was wrong with it when read.
   */
  readonly backupState: {
    path: string | null;
    pending: boolean;
    error: string | null;
    problem: string | null;
  };
  /** Emitted when `backupState` changes. */
  readonly backupChanged: ISignal<IProgressTracker, void>;
  /** Solved, attempted, crashed and not-started counts over some cases. */
  summary(names: readonly string[]): {
    total: number;
    solved: number;
    attempted: number;
    crashed: number;
    notStarted: number;
    fraction: number;
  };
}

/** The progress tracker token. */
export const IProgressTracker = new Token<IProgressTracker>(
  'jupyterlab-junobench:IProgressTracker',
  "The learner's progress on the cases of the current casebook."
);

/**
 * Opens the reveal of a case (diagnosis and reference fix) when the
 * instructor's policy allows it.
 */
export interface IRevealer {
  /** Whether the reveal of a case is open, and why not. */
  state(name: string): {
    canReveal: boolean;
    canGiveUp: boolean;
    why: string;
  };
  /** Show the reveal of a case (refused with a message when closed). */
  open(name: string): Promise<void>;
  /** Record giving up as an attempt, then show the reveal. */
  giveUp(name: string): Promise<void>;
  /** Emitted when the policy or the learner's progress changes. */
  readonly changed: ISignal<IRevealer, void>;
}

/** The revealer token. */
export const IRevealer = new Token<IRevealer>(
  'jupyterlab-junobench:IRevealer',
  'Shows the diagnosis and reference fix of a case, gated by the reveal policy.'
);

/** A workshop the learner is working through, as the workshop manager keeps it. */
export interface IActiveWorkshop {
  /** The server path of the workshop file. */
  readonly path: string;
  /** The workshop, as read from the file. */
  readonly workshop: IWorkshop;
  /** When the learner started it, as an ISO 8601 string (the time box counts from here). */
  readonly startedAt: string;
}

/**
 * The instructor's workshop the learner is in: a playlist of cases that also
 * sets the reveal policy while it is active.
 */
export interface IWorkshopManager {
  /** The active workshop, or null. */
  readonly active: IActiveWorkshop | null;
  /** The reveal policy the active workshop sets (overrides the setting), or null. */
  readonly revealPolicy: RevealPolicy | null;
  /** Emitted when a workshop is opened, restored or left. */
  readonly changed: ISignal<IWorkshopManager, void>;
  /** Open the workshop file at a server path; rejects with an error naming the file and field. */
  open(path: string): Promise<IActiveWorkshop>;
  /** Leave the active workshop. */
  leave(): Promise<void>;
}

/** The workshop manager token. */
export const IWorkshopManager = new Token<IWorkshopManager>(
  'jupyterlab-junobench:IWorkshopManager',
  "The instructor's workshop (playlist, reveal policy, time box) the learner is in."
);

/** The workspace folder where working copies and the progress backup live. */
export interface IWorkspaceFolder {
  /** Server path of the folder. */
  readonly folder: string;
  /** Emitted with the new folder when the setting changes. */
  readonly changed: ISignal<IWorkspaceFolder, string>;
}

/** The workspace folder token. */
export const IWorkspaceFolder = new Token<IWorkspaceFolder>(
  'jupyterlab-junobench:IWorkspaceFolder',
  'The server folder of working copies and the progress backup (the Replay setting workspaceFolder).'
);
