/**
 * Working copies on the Jupyter server: find the latest attempt of a case or
 * create a new one from the casebook's reproduced notebook. The casebook is
 * only ever read.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { checkNotebookSize, validateNotebook } from '../casebook/notebook';
import { joinSafe } from '../casebook/paths';
import type { ICase, ICasebook } from '../casebook/types';
import type { INotebookJSON } from '../replay/types';
import { ensureFolders } from '../kernel/folders';
import { makeWorkingCopy, workingCopyPath } from './workingCopy';

/** The workspace folder when the setting is empty or unreadable. */
export const DEFAULT_WORKSPACE_FOLDER = 'junobench-work';

/**
 * The workspace folder setting (Replay settings, `workspaceFolder`), read in
 * one place and followed by everything that writes under it (working copies,
 * the progress backup).
 */
export class WorkspaceFolder {
  /** Emitted with the new folder when it changes. */
  get changed(): ISignal<this, string> {
    return this._changed;
  }

  /** Server path of the folder, without leading or trailing slashes. */
  get folder(): string {
    return this._folder;
  }

  /**
   * Take a setting's value: slashes at either end are dropped, and an empty
   * or non-string value means the default folder.
   */
  set(value: unknown): void {
    const folder = WorkspaceFolder.normalize(value);
    if (folder !== this._folder) {
      this._folder = folder;
      this._changed.emit(folder);
    }
  }

  private _folder = DEFAULT_WORKSPACE_FOLDER;
  private _changed = new Signal<this, string>(this);
}

/**
 * A namespace for WorkspaceFolder statics.
 */
export namespace WorkspaceFolder {
  /** A setting's value as a folder path (see `set`). */
  export function normalize(value: unknown): string {
    const text =
      typeof value === 'string' ? value.replace(/^\/+|\/+$/g, '') : '';
    return text || DEFAULT_WORKSPACE_FOLDER;
  }
}

/**
 * Creates and finds working copies under a workspace folder.
 */
export class Workspace {
  /**
   * Create a workspace over a contents manager.
   */
  constructor(options: Workspace.IOptions) {
    this._contents = options.contents;
    this.folder = options.folder;
  }

  /** Server path of the workspace folder. */
  folder: string;

  /**
   * The latest attempt number of a case, 0 when there is none.
   */
  async latestAttempt(book: ICasebook, c: ICase): Promise<number> {
    const dir = this._caseDir(book, c);
    let listing: Contents.IModel;
    try {
      listing = await this._contents.get(dir, { content: true });
    } catch {
      return 0;
    }
    const pattern = new RegExp(
      `^${c.name.replace(/[.]/g, '\\.')}-(\\d+)\\.ipynb$`
    );
    let latest = 0;
    for (const item of (listing.content ?? []) as Contents.IModel[]) {
      const match = pattern.exec(item.name);
      if (match) {
        latest = Math.max(latest, Number(match[1]));
      }
    }
    return latest;
  }

  /**
   * The path of the latest working copy, creating the first one if needed.
   */
  async ensure(
    book: ICasebook,
    casebookPath: string,
    c: ICase
  ): Promise<string> {
    const latest = await this.latestAttempt(book, c);
    if (latest > 0) {
      return workingCopyPath(this.folder, book.name, c.name, latest);
    }
    return this.create(book, casebookPath, c, 1);
  }

  /**
   * Create a new attempt (never overwriting an existing file).
   */
  async create(
    book: ICasebook,
    casebookPath: string,
    c: ICase,
    attempt?: number
  ): Promise<string> {
    if (!c.files.folder || !c.files.reproduced) {
      throw new Error(
        `${c.name}: the case has no reproduced notebook to practise on.`
      );
    }
    const n = attempt ?? (await this.latestAttempt(book, c)) + 1;
    const caseFolder = joinSafe(casebookPath, c.files.folder);
    const reproducedPath = joinSafe(caseFolder, `${c.name}_reproduced.ipynb`);
    const nb = await readServerNotebook(this._contents, reproducedPath);
    const copy = makeWorkingCopy(nb, {
      caseName: c.name,
      casebook: book.name,
      caseFolder,
      attempt: n,
      recordedEname: c.ename,
      recordedEvalue: c.evalue
    });
    const path = workingCopyPath(this.folder, book.name, c.name, n);
    await ensureFolders(this._contents, path.split('/').slice(0, -1));
    try {
      await this._contents.get(path, { content: false });
      throw new Error(`${path}: already exists; it is kept as it is.`);
    } catch (reason) {
      if ((reason as Error).message?.includes('already exists')) {
        throw reason;
      }
    }
    await this._contents.save(path, {
      type: 'notebook',
      format: 'json',
      content: copy
    });
    return path;
  }

  private _caseDir(book: ICasebook, c: ICase): string {
    return PathExt.join(this.folder, book.name, c.name);
  }

  private _contents: Contents.IManager;
}

/**
 * A namespace for Workspace statics.
 */
export namespace Workspace {
  /** Options to create a workspace. */
  export interface IOptions {
    /** Contents manager. */
    contents: Contents.IManager;
    /** Server path of the workspace folder. */
    folder: string;
  }
}

/**
 * Read a notebook through the Contents API; the error names the path and what
 * is wrong with it.
 */
export async function readServerNotebook(
  contents: Contents.IManager,
  path: string
): Promise<INotebookJSON> {
  let model: Contents.IModel;
  try {
    // The size first, so a huge notebook is refused before it is downloaded.
    const head = await contents.get(path, { content: false });
    checkNotebookSize(head.size, path);
    model = await contents.get(path, { content: true, type: 'notebook' });
  } catch (reason) {
    const message = (reason as Error).message ?? String(reason);
    throw new Error(
      message.startsWith(`${path}:`)
        ? message
        : `${path}: cannot be read as a notebook (${message}).`
    );
  }
  return validateNotebook(model.content, path);
}
