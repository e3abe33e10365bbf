/**
 * One kernel started ahead of time, so opening a case does not wait for a
 * kernel to start: the next working copy's session takes it over by id.
 *
 * A kernel keeps the directory it was launched in across restarts. The
 * caller picks it (`folder`, a server path; '' for the server root) so that
 * the replay can still find the case folder from there: the replay probes the
 * kernel's directory and, for a kernel outside the notebook's folder, moves
 * into the case folder relative to the server root.
 */
import { URLExt } from '@jupyterlab/coreutils';
import { KernelAPI, ServerConnection } from '@jupyterlab/services';
import type { Contents, Kernel } from '@jupyterlab/services';
import { KernelConnection } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { ensureFolders } from './folders';

/** A kernel kept warm. */
export interface IWarmKernel {
  /** The kernel id on the server. */
  readonly id: string;
  /** The kernelspec name. */
  readonly name: string;
  /** The server folder it was launched in. */
  readonly folder: string;
}

/**
 * Keeps at most one idle kernel ready for the next working copy.
 */
export class WarmKernelPool implements IDisposable {
  /**
   * Create an empty pool; nothing starts until `fill`.
   */
  constructor(options: WarmKernelPool.IOptions) {
    this._settings = options.serverSettings;
    this._contents = options.contents;
    this._readyTimeoutMs = options.readyTimeoutMs ?? 120000;
  }

  /** Whether the pool is disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }

  /** The kernel being kept warm (possibly still starting), or null. */
  get current(): IWarmKernel | null {
    return this._entry?.kernel ?? null;
  }

  /**
   * Keep one kernel of `name` warm in `folder`; a warm kernel of another name
   * or folder is shut down (beside the new one's start, which does not wait
   * for it). Resolves with the warm kernel once it
   * answers, or null when it could not be started (the pool stays empty).
   */
  async fill(name: string, folder: string): Promise<IWarmKernel | null> {
    if (this._disposed) {
      return null;
    }
    const entry = this._entry;
    if (entry && entry.name === name && entry.folder === folder) {
      return entry.ready;
    }
    if (entry) {
      this._discard(entry);
    }
    const next: Private.IEntry = {
      name,
      folder,
      kernel: null,
      discarded: false,
      ready: Promise.resolve(null)
    };
    next.ready = this._start(next);
    this._entry = next;
    return next.ready;
  }

  /**
   * Hand over the warm kernel when it has this name and folder (waiting for
   * it if it is still starting). The caller owns the kernel afterwards; the
   * pool is empty until the next `fill`. Null when there is none that fits or
   * it died meanwhile.
   */
  async take(name: string, folder: string): Promise<IWarmKernel | null> {
    const entry = this._entry;
    if (!entry || entry.name !== name || entry.folder !== folder) {
      return null;
    }
    this._entry = null;
    const kernel = await entry.ready;
    if (!kernel) {
      return null;
    }
    if (this._disposed) {
      await this._shutdown(kernel.id);
      return null;
    }
    try {
      const model = await KernelAPI.getKernelModel(kernel.id, this._settings);
      if (!model || model.execution_state === 'dead') {
        return null;
      }
    } catch {
      return null;
    }
    return kernel;
  }

  /**
   * Shut down a kernel the pool handed out that was not used after all.
   */
  async release(kernel: IWarmKernel): Promise<void> {
    await this._shutdown(kernel.id);
  }

  /**
   * Shut down the warm kernel, if any; `keepalive` lets the request outlive
   * the page (for `pagehide`).
   */
  async drain(options: { keepalive?: boolean } = {}): Promise<void> {
    const entry = this._entry;
    if (!entry) {
      return;
    }
    const id = entry.kernel?.id;
    if (id && options.keepalive) {
      // The page is going away: send the request now, not after start-up.
      this._entry = null;
      entry.discarded = true;
      await this._shutdown(id, true);
      return;
    }
    await this._discard(entry);
  }

  /** Shut down the warm kernel and stop keeping one. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    void this.drain();
  }

  /**
   * Forget an entry and shut its kernel down, now or when it has started.
   */
  private async _discard(entry: Private.IEntry): Promise<void> {
    if (this._entry === entry) {
      this._entry = null;
    }
    entry.discarded = true;
    // Null when still starting: `_start` shuts it down when it gets there.
    const kernel = await entry.ready;
    if (kernel) {
      await this._shutdown(kernel.id);
    }
  }

  private async _start(entry: Private.IEntry): Promise<IWarmKernel | null> {
    try {
      await this._ensureFolder(entry.folder);
      const model = await this._post(entry.name, entry.folder);
      const kernel: IWarmKernel = {
        id: model.id,
        name: model.name,
        folder: entry.folder
      };
      entry.kernel = kernel;
      if (!entry.discarded) {
        await this._waitReady(model);
      }
      if (entry.discarded) {
        // Replaced or drained while it started: nobody will take it.
        await this._shutdown(kernel.id);
        return null;
      }
      return kernel;
    } catch (reason) {
      console.warn(
        `jupyterlab-junobench: could not start a warm ${entry.name} kernel in ${entry.folder || '/'}: ${(reason as Error).message}`
      );
      if (this._entry === entry) {
        this._entry = null;
      }
      if (entry.kernel) {
        // Started but silent (a kernel can hang before it answers anything):
        // nobody will take it, so it must not run on unseen.
        await this._shutdown(entry.kernel.id);
      }
      return null;
    }
  }

  /**
   * Start a kernel launched in a server folder: the REST API takes a `path`
   * for the working directory, which `KernelAPI.startNew` does not expose.
   */
  private async _post(name: string, folder: string): Promise<Kernel.IModel> {
    const url = URLExt.join(this._settings.baseUrl, 'api/kernels');
    const response = await ServerConnection.makeRequest(
      url,
      { method: 'POST', body: JSON.stringify({ name, path: folder }) },
      this._settings
    );
    if (response.status !== 201) {
      throw await ServerConnection.ResponseError.create(response);
    }
    const model = (await response.json()) as Kernel.IModel;
    if (typeof model?.id !== 'string' || typeof model?.name !== 'string') {
      throw new Error('the server answered without a kernel id');
    }
    return model;
  }

  /** Wait until the kernel answers a kernel_info request, then let go of it. */
  private async _waitReady(model: Kernel.IModel): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connection = new KernelConnection({
      model,
      serverSettings: this._settings,
      handleComms: false
    });
    try {
      await Promise.race([
        connection.info,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(
                  `no answer within ${this._readyTimeoutMs / 1000} s of starting`
                )
              ),
            this._readyTimeoutMs
          );
        })
      ]);
    } finally {
      clearTimeout(timer);
      // Disposing the connection closes its websocket; the kernel runs on.
      connection.dispose();
    }
  }

  private async _ensureFolder(folder: string): Promise<void> {
    if (!this._contents) {
      return;
    }
    await ensureFolders(this._contents, folder.split('/').filter(Boolean));
  }

  private async _shutdown(id: string, keepalive = false): Promise<void> {
    const url = URLExt.join(
      this._settings.baseUrl,
      'api/kernels',
      encodeURIComponent(id)
    );
    try {
      await ServerConnection.makeRequest(
        url,
        { method: 'DELETE', keepalive },
        this._settings
      );
    } catch {
      // Already gone, or the server is: nothing left to shut down.
    }
  }

  private _settings: ServerConnection.ISettings;
  private _contents: Contents.IManager | null;
  private _readyTimeoutMs: number;
  private _entry: Private.IEntry | null = null;
  private _disposed = false;
}

/**
 * A namespace for WarmKernelPool statics.
 */
export namespace WarmKernelPool {
  /** Options to create a pool. */
  export interface IOptions {
    /** The server the kernels run on. */
    serverSettings: ServerConnection.ISettings;
    /** Contents manager to create the warm folder with; null when it exists. */
    contents: Contents.IManager | null;
    /** How long a kernel may take to answer after starting (default 120 s). */
    readyTimeoutMs?: number;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** The pool's one slot. */
  export interface IEntry {
    name: string;
    folder: string;
    /** Known once the server has answered the start request. */
    kernel: IWarmKernel | null;
    /** Replaced or drained: shut down instead of handed out. */
    discarded: boolean;
    ready: Promise<IWarmKernel | null>;
  }
}
