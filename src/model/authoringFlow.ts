/**
 * The authoring workflows behind "New JunoBench Casebook…", "Save as
 * JunoBench Case…" and "Save as JunoBench Reference Fix": what to ask, what to
 * write, what to verify and what to tell the author. No DOM: the dialogs are
 * callbacks the plugin passes in.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { Kernel } from '@jupyterlab/services';
import type { TranslationBundle } from '@jupyterlab/translation';

import {
  describeNameProblem,
  describeNote,
  describeRecordProblem
} from '../authoring/messages';
import { fixedNotebook } from '../authoring/record';
import {
  caseNameProblem,
  caseSpec,
  labelSets,
  suggestName
} from '../authoring/spec';
import type { ILabelSets } from '../authoring/spec';
import type { INotebookJSON } from '../replay/types';
import type { ICasebookManager } from '../tokens';
import { draftReason } from '../verify/case';
import { renderVerdictReason } from '../verify/verdict';
import type { CaseAuthor, Settled } from './authoring';
import { readWorkingCopyMeta } from './workingCopy';

/** What the author tells of a case in the "Save as JunoBench Case" form. */
export interface ICaseDetails {
  /** Case name. */
  name: string;
  /** `label_root_cause`. */
  rootCause: string;
  /** `label_refined_exp_type`. */
  crashType: string;
  /** `label_ML_pipeline`. */
  pipelineStage: string;
  /** `label_if_ML_bug`. */
  mlBug: string;
  /** Library. */
  library: string;
  /** The written diagnosis. */
  diagnosis: string;
  /** Dataset title. */
  datasetTitle: string;
  /** Dataset licence. */
  datasetLicense: string;
  /** Dataset URL. */
  datasetUrl: string;
  /** Input files relative to the notebook's folder. */
  data: string[];
}

/**
 * Decides and runs the steps of authoring a casebook, a case or a reference
 * fix; asks and reports through the dialogs it is given.
 */
export class AuthoringFlow {
  /**
   * Build the flow over a case author and the casebook manager.
   */
  constructor(options: AuthoringFlow.IOptions) {
    this._author = options.author;
    this._manager = options.manager;
    this._dialogs = options.dialogs;
    this._trans = options.trans;
    this._useCasebook =
      options.useCasebook ?? (path => this._manager.load(path));
  }

  /**
   * Create an empty casebook at `path` (asked for when empty) and use it.
   */
  async newCasebook(path = ''): Promise<AuthoringFlow.Outcome> {
    const trans = this._trans;
    if (!path) {
      const asked = await this._dialogs.askFolder();
      if (!asked?.trim()) {
        return 'cancelled';
      }
      path = asked.trim();
    }
    path = path.replace(/^\/+|\/+$/g, '');
    try {
      await this._author.newCasebook(path);
    } catch (reason) {
      await this._fail(trans.__('The casebook was not created'), reason);
      return 'failed';
    }
    await this._useCasebook(path);
    return 'created';
  }

  /**
   * Save a crashed notebook as a case of the casebook, in the order its
   * kernel ran the cells, then verify it and say how it settled.
   */
  async saveCase(
    subject: AuthoringFlow.ISubject,
    kernel: Kernel.IKernelConnection
  ): Promise<AuthoringFlow.Outcome> {
    const trans = this._trans;
    const __ = trans.__.bind(trans);
    const book = this._manager.casebook;
    if (!book) {
      await this._fail(
        trans.__('No casebook'),
        trans.__(
          'Choose a casebook (or create one with "New JunoBench Casebook…") first.'
        )
      );
      return 'failed';
    }
    const author = this._author;
    const nb = subject.notebook();
    let recording;
    try {
      recording = await author.record(kernel, nb);
    } catch (reason) {
      await this._fail(trans.__('The order could not be recorded'), reason);
      return 'failed';
    }
    if (!recording.ok) {
      await this._fail(
        trans.__('Nothing to save'),
        describeRecordProblem(recording.problem, __)
      );
      return 'failed';
    }
    const notes = recording.notes.map(note => describeNote(note, __));
    // Offer the files the code names that exist beside the notebook.
    const folder = PathExt.dirname(subject.path);
    const request: AuthoringFlow.ICaseRequest = {
      labels: labelSets(book.cases),
      notes,
      name: suggestName(book.cases),
      data: await author.inputFiles(folder, nb),
      previous: null
    };
    let value: ICaseDetails;
    let update = false;
    for (;;) {
      const answer = await this._dialogs.editCase(request);
      if (!answer) {
        return 'cancelled';
      }
      value = answer;
      request.previous = answer;
      const problem = caseNameProblem(value.name, book.cases);
      if (problem === null) {
        break;
      }
      if (problem.code === 'exists') {
        const replace = await this._dialogs.confirmReplace(
          trans.__('Replace case %1?', value.name),
          describeNameProblem(value.name, problem, __)
        );
        if (replace) {
          update = true;
          break;
        }
        continue;
      }
      await this._fail(
        trans.__('Choose another name'),
        describeNameProblem(value.name, problem, __)
      );
    }
    const spec = caseSpec({
      name: value.name,
      original: nb,
      reproduced: recording.reproduced,
      target: recording.target,
      data: value.data,
      update,
      description: Private.description(value)
    });
    let warnings: string[];
    try {
      ({ warnings } = await author.writeCase(this._manager.path, folder, spec));
    } catch (reason) {
      await this._fail(trans.__('The case was not saved'), reason);
      return 'failed';
    }
    author.rememberSaved(subject.path, this._manager.path, value.name);
    return this._verifyAndReport(value.name, null, warnings);
  }

  /**
   * Save a notebook that runs cleanly as its case's reference fix (the case
   * it was saved as, else its working copy's, else asked), once it passes.
   */
  async saveFix(
    subject: AuthoringFlow.ISubject
  ): Promise<AuthoringFlow.Outcome> {
    const book = this._manager.casebook;
    if (!book) {
      return 'cancelled';
    }
    const meta = readWorkingCopyMeta(subject.notebook().metadata);
    let name = this._author.savedAs(subject.path)?.name ?? meta?.case ?? null;
    if (!name) {
      const asked = await this._dialogs.chooseCase(book.cases.map(c => c.name));
      if (!asked) {
        return 'cancelled';
      }
      name = asked;
    }
    // The notebook as it is now: the author may have edited it meanwhile.
    const fixed = fixedNotebook(subject.notebook());
    return this._verifyAndReport(name, fixed, []);
  }

  /**
   * Reload the casebook, verify the case (with `fixed` as its reference fix
   * when given, written only when it passes), mark it a draft or verified, and
   * show the result.
   */
  private async _verifyAndReport(
    name: string,
    fixed: INotebookJSON | null,
    warnings: string[]
  ): Promise<AuthoringFlow.Outcome> {
    const trans = this._trans;
    const manager = this._manager;
    const casebook = manager.path;
    await manager.load(casebook);
    const c = manager.find(name);
    if (!c) {
      await this._dialogs.report(
        trans.__('Case not found'),
        trans.__('The casebook has no case %1 after saving it.', name)
      );
      return 'failed';
    }
    let settled: Settled;
    try {
      settled = await this._author.settle(casebook, c, fixed);
    } catch (reason) {
      await this._fail(
        trans.__('The case could not be verified and saved'),
        reason
      );
      return 'failed';
    }
    if (settled.kind === 'fix-refused') {
      await this._dialogs.report(
        trans.__('The fix was not saved'),
        trans.__(
          'This notebook does not pass as the reference fix of %1: %2',
          name,
          renderVerdictReason(
            settled.verification.fixed.why,
            trans.__.bind(trans)
          )
        )
      );
      return 'fix-refused';
    }
    const { verification, draft: reason } = settled;
    await manager.load(casebook);
    const lines = [
      reason === null
        ? trans.__(
            'Verified: %1 crashes as recorded (%2) and its reference fix passes. The case counts.',
            name,
            verification.reproduced.observed ?? c.ename
          )
        : trans.__(
            '%1 is saved as a draft (DRAFT.md in its folder says why): %2',
            name,
            draftReason(verification, trans.__.bind(trans)) ?? reason
          ),
      ...warnings
    ];
    await this._dialogs.inform(
      reason === null
        ? trans.__('JunoBench case verified')
        : trans.__('JunoBench case saved as a draft'),
      lines
    );
    return reason === null ? 'verified' : 'draft';
  }

  /** Report a failure with the reason's message. */
  private _fail(title: string, reason: unknown): Promise<void> {
    return this._dialogs.report(
      title,
      reason instanceof Error ? reason.message : String(reason)
    );
  }

  private readonly _author: CaseAuthor;
  private readonly _manager: ICasebookManager;
  private readonly _dialogs: AuthoringFlow.IDialogs;
  private readonly _trans: TranslationBundle;
  private readonly _useCasebook: (path: string) => Promise<void>;
}

/**
 * Options and types of AuthoringFlow.
 */
export namespace AuthoringFlow {
  /** What the flow needs. */
  export interface IOptions {
    /** Writes and verifies through the server. */
    author: CaseAuthor;
    /** The casebook cases are saved into, reloaded after each write. */
    manager: ICasebookManager;
    /** Asks the author and shows results. */
    dialogs: IDialogs;
    /** The extension's translation bundle. */
    trans: TranslationBundle;
    /** Make a new casebook the current one (default: load it in `manager`). */
    useCasebook?: (path: string) => Promise<void>;
  }

  /** The notebook a command acts on. */
  export interface ISubject {
    /** Its server path. */
    path: string;
    /** Its content now. */
    notebook(): INotebookJSON;
  }

  /** What the case form is shown with. */
  export interface ICaseRequest {
    /** The casebook's label sets, offered as choices. */
    labels: ILabelSets;
    /** What the author should know about the recorded order. */
    notes: string[];
    /** The suggested case name. */
    name: string;
    /** The input files found beside the notebook. */
    data: string[];
    /** The author's previous answer when the form is shown again, else null. */
    previous: ICaseDetails | null;
  }

  /** The dialogs the flow asks and reports through. */
  export interface IDialogs {
    /** The folder for a new casebook, or null when cancelled. */
    askFolder(): Promise<string | null>;
    /** The case form's answer, or null when cancelled. */
    editCase(request: ICaseRequest): Promise<ICaseDetails | null>;
    /** Whether to replace an existing case (a title and why it is asked). */
    confirmReplace(title: string, body: string): Promise<boolean>;
    /** The case a notebook fixes, among names, or null when cancelled. */
    chooseCase(names: string[]): Promise<string | null>;
    /** Tell of a failure; resolves when dismissed. */
    report(title: string, message: string): Promise<void>;
    /** Show how a case settled (a title and lines); resolves when dismissed. */
    inform(title: string, lines: string[]): Promise<void>;
  }

  /** How a command ended. */
  export type Outcome =
    'cancelled' | 'failed' | 'created' | 'fix-refused' | 'draft' | 'verified';
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The description of a case from the form.
   */
  export function description(value: ICaseDetails) {
    return {
      labels: {
        rootCause: value.rootCause,
        crashType: value.crashType,
        pipelineStage: value.pipelineStage,
        mlBug: value.mlBug
      },
      library: value.library,
      diagnosis: value.diagnosis,
      datasets: [
        {
          title: value.datasetTitle,
          license: value.datasetLicense,
          url: value.datasetUrl
        }
      ]
    };
  }
}
