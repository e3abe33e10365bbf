/**
 * Tokens and public interfaces of jupyterlab-junobench.
 */
import { Token } from '@lumino/coreutils';
import type { ISignal } from '@lumino/signaling';
import type { NotebookPanel } from '@jupyterlab/notebook';

import type { ICase, ICasebook } from './casebook/types';
import type * as progress from './progress/interfaces';
import type { RevealPolicy } from './repair/reveal';
import type { IWorkshop } from './workshop/workshop';
import type { IDriftReport } from './kernel/drift';
import type { IRunResult } from './kernel/runner';
import type { ICheckState } from './model/checkModel';
import type { IReplayState, IReplayTimelines } from './model/replayModel';
import type { IWorkingCopyMeta } from './model/workingCopy';
import type { ICheckVerdict } from './repair/check';
import type { IHint } from './repair/hints';

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

export type { ICaseStatusProvider } from './progress/interfaces';

/**
 * Where the learner's progress on the current casebook is kept (declared in
 * `progress/interfaces.ts`, so that the models which record progress do not
 * import the tokens).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface IProgressTracker extends progress.IProgressTracker {}

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

/** A replay's state with the sentence its status renders to (for people and screen readers). */
export type IReplayView = IReplayState & { readonly message: string };

/** A check's state with the sentence its status renders to. */
export type ICheckView = ICheckState & { readonly message: string };

/** The replay of one working copy, as views and commands use it. */
export interface IReplay {
  /** The state, rendered. */
  readonly state: IReplayView;
  /** Emitted when the state changes. */
  readonly stateChanged: ISignal<IReplay, IReplayView>;
  /** Whether a replay is running (or starting). */
  readonly isRunning: boolean;
  /** The working copy metadata, read from the notebook. */
  readonly meta: IWorkingCopyMeta | null;
  /** The kernel's differences from the benchmark pins (null until probed). */
  readonly drift: IDriftReport | null;
  /** Why the last environment probe failed, or null. */
  readonly driftError: string | null;
  /** Emitted when the environment has been probed. */
  readonly driftChanged: ISignal<unknown, IDriftReport | null>;
  /** The state timelines of the last recorded and top-to-bottom runs. */
  readonly timelines: IReplayTimelines;
  /** Emitted when a run's state timeline is ready. */
  readonly timelinesChanged: ISignal<unknown, IReplayTimelines>;
  /** Replay from a fresh kernel, in the recorded order or top to bottom. */
  replay(kind: 'recorded' | 'top-to-bottom'): Promise<IRunResult | null>;
  /** Interrupt the running replay. */
  interrupt(): Promise<void>;
}

/** The check of the learner's repair in one working copy. */
export interface ICheck {
  /** The state, rendered. */
  readonly state: ICheckView;
  /** Emitted when the state changes. */
  readonly stateChanged: ISignal<ICheck, ICheckView>;
  /** Run the check; resolves with the verdict, or null when it could not run. */
  check(): Promise<ICheckVerdict | null>;
  /** Open the next hint (recorded in the learner's progress). */
  nextHint(): Promise<IHint | null>;
}

/** One open working copy with its replay and check. */
export interface IWorkingCopy {
  /** Its notebook panel. */
  readonly panel: NotebookPanel;
  /** The case it is a copy of. */
  readonly caseName: string;
  /** Replays it. */
  readonly replay: IReplay;
  /** Checks the learner's repair in it. */
  readonly check: ICheck;
}

/** The working copies open in JupyterLab, each with its replay and check models. */
export interface IWorkingCopies {
  /** Emitted when a working copy is open and its models are made. */
  readonly added: ISignal<IWorkingCopies, IWorkingCopy>;
  /** The per-cell timeout of replays and checks, in ms (0: none). */
  timeoutMs: number;
  /** The working copy shown in a notebook panel, or null when it is not one. */
  get(panel: NotebookPanel): IWorkingCopy | null;
}

/** The working copies token. */
export const IWorkingCopies = new Token<IWorkingCopies>(
  'jupyterlab-junobench:IWorkingCopies',
  'The open working copies of cases with their replay and check models.'
);
