/**
 * Authoring cases from JupyterLab: the server's case writer
 * (`POST /junobench/authoring/*`) and the verification of a new case in fresh
 * kernels beside it. No DOM.
 */
import { PathExt, URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import type { Contents, Kernel, Session } from '@jupyterlab/services';

import { recordFromHistory } from '../authoring/record';
import type { RecordResult } from '../authoring/record';
import { dataCandidates } from '../authoring/spec';
import type { ICaseSpec } from '../authoring/spec';
import {
  readWriterProblem,
  renderWriterProblem
} from '../authoring/writerProblems';
import { joinSafe } from '../casebook/paths';
import type { ICase } from '../casebook/types';
import { english } from '../i18n';
import type { Translate } from '../i18n';
import {
  renderStartFailure,
  startSession,
  uniqueSuffix
} from '../kernel/freshSession';
import { readInputHistory } from '../kernel/history';
import { PlanRunner } from '../kernel/runner';
import type { INotebookJSON } from '../replay/types';
import { draftReason, verifyCaseWith } from '../verify/case';
import type { ICaseVerification } from '../verify/case';
import { renderServerAnswer } from './serverProblems';
import { readServerNotebook } from './workspace';

/** What the writer answered. */
export interface IAuthoringAnswer {
  /** Casebook-relative files written. */
  files: string[];
  /** Backups kept. */
  backups: string[];
  /** What the author should know, in words (translated). */
  warnings: string[];
}

/** How a verification settled a case. */
export type Settled =
  | {
      /** The case was verified and marked: a draft (with its reason) or counted. */
      kind: 'marked';
      verification: ICaseVerification;
      /** Why it stays a draft, or null when it counts. */
      draft: string | null;
    }
  | {
      /** The candidate fix did not pass; nothing was written. */
      kind: 'fix-refused';
      verification: ICaseVerification;
    };

/**
 * Writes and verifies cases through the Jupyter server.
 */
export class CaseAuthor {
  /**
   * Bind to a server.
   */
  constructor(options: CaseAuthor.IOptions) {
    this._options = options;
    this._trans = options.translate ?? english;
  }

  /**
   * The case a notebook was saved as in this session (casebook and name), or null.
   */
  savedAs(path: string): { casebook: string; name: string } | null {
    return this._saved.get(path) ?? null;
  }

  /**
   * Remember the case a notebook was saved as, for its reference fix.
   */
  rememberSaved(path: string, casebook: string, name: string): void {
    this._saved.set(path, { casebook, name });
  }

  /**
   * Record a live session: the kernel's input history matched to the notebook's cells.
   */
  async record(
    kernel: Kernel.IKernelConnection,
    nb: INotebookJSON
  ): Promise<RecordResult> {
    const { history } = await readInputHistory(kernel);
    return recordFromHistory(nb, history);
  }

  /**
   * The relative paths the notebook's code names that exist in its folder.
   */
  async inputFiles(folder: string, nb: INotebookJSON): Promise<string[]> {
    const found: string[] = [];
    for (const path of dataCandidates(nb)) {
      try {
        await this._options.contents.get(joinSafe(folder, path), {
          content: false
        });
        found.push(path);
      } catch {
        // not a file there
      }
    }
    return found;
  }

  /**
   * Verify a case (with `fixed` as its candidate reference fix, written only
   * when it passes) and mark it: a draft saying why, or counted.
   */
  async settle(
    casebook: string,
    c: ICase,
    fixed: INotebookJSON | null
  ): Promise<Settled> {
    const verification = await this.verify(casebook, c, fixed);
    if (fixed) {
      if (verification.fixed.verdict !== 'pass') {
        return { kind: 'fix-refused', verification };
      }
      await this.writeFixed(casebook, c.name, fixed);
    }
    const draft = draftReason(verification);
    await this.setDraft(casebook, c.name, draft);
    return { kind: 'marked', verification, draft };
  }

  /**
   * Create an empty casebook at a server path.
   */
  async newCasebook(path: string): Promise<IAuthoringAnswer> {
    return this._post('casebook', { path });
  }

  /**
   * Write a case into the casebook at a server path; data paths are relative
   * to `dataRoot` (the notebook's folder).
   */
  async writeCase(
    casebook: string,
    dataRoot: string,
    spec: ICaseSpec
  ): Promise<IAuthoringAnswer> {
    return this._post('case', { casebook, dataRoot, spec });
  }

  /**
   * Write a case's `<case>_fixed.ipynb`.
   */
  async writeFixed(
    casebook: string,
    name: string,
    notebook: INotebookJSON
  ): Promise<IAuthoringAnswer> {
    return this._post('fixed', { casebook, case: name, notebook });
  }

  /**
   * Mark a case as a draft saying why, or as verified (reason null).
   */
  async setDraft(
    casebook: string,
    name: string,
    reason: string | null
  ): Promise<void> {
    await this._post('draft', { casebook, case: name, reason });
  }

  /**
   * Verify a case of the casebook at a server path in fresh kernels started
   * in its folder; `fixed` stands in for its `<case>_fixed.ipynb` when given.
   */
  async verify(
    casebook: string,
    c: ICase,
    fixed: INotebookJSON | null = null
  ): Promise<ICaseVerification> {
    const fixedRel = `${c.files.folder}/${c.name}_fixed.ipynb`;
    const subject: ICase = fixed
      ? { ...c, files: { ...c.files, fixed: true } }
      : c;
    return verifyCaseWith(subject, {
      read: async rel => {
        if (fixed && rel === fixedRel) {
          return fixed;
        }
        try {
          return await readServerNotebook(
            this._options.contents,
            joinSafe(casebook, rel)
          );
        } catch (reason) {
          return (reason as Error).message;
        }
      },
      run: (plan, rel, options) =>
        this._run(joinSafe(casebook, rel), runner => runner.run(plan, options))
    });
  }

  /**
   * Start a fresh kernel beside a notebook (its folder is the working
   * directory), hand it to `use`, and shut it down.
   */
  private async _run<T>(
    path: string,
    use: (runner: PlanRunner) => Promise<T>
  ): Promise<T | string> {
    let session: Session.ISessionConnection;
    try {
      session = await startSession(this._options.sessions, {
        path: `${path}.junobench-verify-${uniqueSuffix()}`,
        name: PathExt.basename(path),
        kernel: this._options.kernelName?.() ?? 'python3'
      });
    } catch (reason) {
      return this._trans(
        'Could not start a kernel: %1',
        renderStartFailure(reason, this._trans)
      );
    }
    try {
      if (!session.kernel) {
        return this._trans('The session has no kernel.');
      }
      return await use(
        new PlanRunner({
          kernel: session.kernel,
          timeoutMs: this._options.timeoutMs ?? 300000,
          translate: this._trans
        })
      );
    } finally {
      await session.shutdown().catch(() => undefined);
      session.dispose();
    }
  }

  /**
   * POST JSON to `junobench/authoring/<what>`; rejects with the server's
   * code in words (it names the file or case and what is wrong), and words
   * the writer's warnings.
   */
  private async _post(what: string, body: unknown): Promise<IAuthoringAnswer> {
    const settings = this._options.serverSettings;
    const url = URLExt.join(settings.baseUrl, 'junobench', 'authoring', what);
    const response = await ServerConnection.makeRequest(
      url,
      { method: 'POST', body: JSON.stringify(body) },
      settings
    );
    let answer: Record<string, unknown> = {};
    try {
      answer = await response.json();
    } catch {
      // handled below
    }
    if (!response.ok) {
      throw new Error(
        renderServerAnswer(answer, this._trans) ??
          this._trans(
            'POST /junobench/authoring/%1 answered %2',
            what,
            response.status
          )
      );
    }
    const warnings = Array.isArray(answer.warnings) ? answer.warnings : [];
    return {
      files: (answer.files as string[]) ?? [],
      backups: (answer.backups as string[]) ?? [],
      warnings: warnings.map(w => {
        const problem = readWriterProblem(w);
        return problem
          ? renderWriterProblem(problem, this._trans)
          : String((w as { message?: unknown })?.message ?? w);
      })
    };
  }

  private readonly _options: CaseAuthor.IOptions;
  private readonly _trans: Translate;
  private readonly _saved = new Map<
    string,
    { casebook: string; name: string }
  >();
}

/**
 * Options of CaseAuthor.
 */
export namespace CaseAuthor {
  /**
   * What a case author needs.
   */
  export interface IOptions {
    /** The server. */
    serverSettings: ServerConnection.ISettings;
    /** Contents, to read notebooks. */
    contents: Contents.IManager;
    /** Sessions, to start verification kernels. */
    sessions: Session.IManager;
    /** The kernel to verify with (default python3). */
    kernelName?: () => string;
    /** Per-cell timeout in ms (default 300 s). */
    timeoutMs?: number;
    /** Words the sentences the author's runs give (English by default). */
    translate?: Translate;
  }
}
