/**
 * Opening cases: a case's latest working copy (made on first open) or a new
 * one (reset), opened with the kernel the settings ask for, taking the warm
 * kernel when it fits and warming the next one.
 */
import type { IDocumentManager } from '@jupyterlab/docmanager';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { ServiceManager } from '@jupyterlab/services';

import { chooseEnvironment, specEnvironment } from '../kernel/environment';
import type {
  EnvironmentPreference,
  IEnvironmentChoice
} from '../kernel/environment';
import { WarmKernelPool } from '../kernel/warmPool';
import type { IWarmKernel } from '../kernel/warmPool';
import type { ICaseOpener, ICasebookManager } from '../tokens';
import { readWorkingCopyMeta } from './workingCopy';
import type { Workspace } from './workspace';

/**
 * A kernel started ahead of time for the next case opened starts in the
 * server root: the replay probes a kernel's directory and, for one outside
 * the notebook's folder, finds the case folder from the root.
 */
const WARM_FOLDER = '';

/**
 * Opens and resets working copies of the casebook's cases.
 */
export class CaseOpener implements ICaseOpener {
  /** Build an opener. */
  constructor(options: CaseOpener.IOptions) {
    this._options = options;
    this._pool = new WarmKernelPool({
      serverSettings: options.services.serverSettings,
      contents: options.services.contents
    });
    options.manager.changed.connect(() => void this.refillWarm());
  }

  /** The kernel working copies open with ('' = the kernel of the environment `environment` chooses). */
  kernelName = '';

  /** The environment working copies open in when `kernelName` is empty. */
  environment: EnvironmentPreference = 'auto';

  /** Whether a kernel is kept warm for the next case. */
  warmKernel = true;

  /** Settle before the first warm kernel starts (the settings load). */
  ready: Promise<unknown> = Promise.resolve();

  /**
   * Open a case's latest working copy (made on first open); an unknown case
   * or a failure is reported, never thrown.
   */
  async open(name: string): Promise<void> {
    const { manager, workspace, trans, report } = this._options;
    const book = manager.casebook;
    const c = manager.find(name);
    if (!book || !c) {
      await report(
        trans.__('Cannot open case'),
        trans.__('No case named %1 in the casebook.', name)
      );
      return;
    }
    try {
      const path = await workspace.ensure(book, manager.path, c);
      await this._openCopy(path);
    } catch (reason) {
      await report(
        trans.__('Cannot open case %1', name),
        (reason as Error).message
      );
    }
  }

  /**
   * Start a new working copy of a case and open it; the open copies of the
   * case are saved first and kept. Resolves with the new path, or null.
   */
  async reset(name: string): Promise<string | null> {
    const { manager, workspace, trans, report, tracker } = this._options;
    const book = manager.casebook;
    const c = manager.find(name);
    if (!book || !c) {
      await report(
        trans.__('Cannot reset case'),
        trans.__('No case named %1 in the casebook.', name)
      );
      return null;
    }
    try {
      // Save the open working copies of the case first: the old copy is
      // kept as the learner left it, never overwritten.
      const open: NotebookPanel[] = [];
      tracker.forEach(panel => {
        const meta = readWorkingCopyMeta({
          junobench: panel.model?.getMetadata('junobench')
        });
        if (meta?.case === name && meta.casebook === book.name) {
          open.push(panel);
        }
      });
      await Promise.all(
        open.map(panel =>
          panel.context.model.dirty ? panel.context.save() : undefined
        )
      );
      const path = await workspace.create(book, manager.path, c);
      await this._openCopy(path);
      return path;
    } catch (reason) {
      await report(
        trans.__('Cannot reset case %1', name),
        (reason as Error).message
      );
      return null;
    }
  }

  /** The case list is on screen: warm a kernel for the case to come. */
  warmUp(): void {
    this._warmWanted = true;
    void this.refillWarm();
  }

  /** Start, keep or stop the warm kernel to match the settings. */
  async refillWarm(): Promise<void> {
    // Settings that fail to load leave the defaults in force.
    await this.ready.catch(() => undefined);
    const book = this._options.manager.casebook;
    const name = await this._warmName();
    if (!this.warmKernel || !name) {
      await this._pool.drain();
    } else if (this._warmWanted && book && name) {
      await this._pool.fill(name, WARM_FOLDER);
    }
  }

  /** Shut the warm kernel down (`keepalive` for a page going away). */
  drain(options?: { keepalive?: boolean }): Promise<void> {
    return this._pool.drain(options);
  }

  /** The kernelspec working copies open with, or undefined for the notebook's own. */
  async kernelFor(): Promise<string | undefined> {
    if (this.kernelName) {
      return this.kernelName;
    }
    return (await this.environmentChoice()).kernel;
  }

  /** The environment the `environment` setting gives among the server's kernelspecs. */
  async environmentChoice(): Promise<IEnvironmentChoice> {
    const specs = this._options.services.kernelspecs;
    await specs.ready;
    return chooseEnvironment(specs.specs, this.environment);
  }

  /**
   * The kernelspec to keep warm, or undefined for none: a container kernel
   * mounts the folders of the session it starts for, so one started in the
   * server root could not serve a case.
   */
  private async _warmName(): Promise<string | undefined> {
    const specs = this._options.services.kernelspecs;
    const name = (await this.kernelFor()) ?? specs.specs?.default;
    const spec = name ? specs.specs?.kernelspecs[name] : undefined;
    return spec && specEnvironment(spec) === 'container' ? undefined : name;
  }

  /**
   * Open a working copy, with the warm kernel when it fits: the copy is
   * not open yet, no session holds its path, and the kernel it would get
   * is the warm one's kernelspec. Then warm the next one.
   */
  private async _openCopy(path: string): Promise<void> {
    const { docManager, services } = this._options;
    let kernel = await this.kernelFor();
    if (!kernel) {
      // The server's Python: a copy that last ran in the container or the
      // pinned kernel keeps that kernelspec in its metadata, which would win.
      const own = await Private.notebookKernel(services, path);
      const specs = services.kernelspecs.specs;
      const spec = own ? specs?.kernelspecs[own] : undefined;
      if (spec && specEnvironment(spec) !== 'server' && specs?.default) {
        kernel = specs.default;
      }
    }
    let warm: IWarmKernel | null = null;
    const unopened =
      !docManager.findWidget(path, 'Notebook') &&
      !Array.from(services.sessions.running()).some(s => s.path === path);
    if (this.warmKernel && this._pool.current && unopened) {
      const wanted = kernel ?? (await Private.notebookKernel(services, path));
      warm = wanted ? await this._pool.take(wanted, WARM_FOLDER) : null;
    }
    if (!warm && kernel && unopened) {
      // A notebook's own kernelspec wins over the kernel asked for when it
      // opens: start the copy's session in the chosen kernel first, which
      // the notebook then joins.
      await Private.startSession(services, path, kernel);
    }
    const widget = docManager.openOrReveal(
      path,
      'Notebook',
      warm
        ? { id: warm.id, name: warm.name }
        : kernel
          ? { name: kernel }
          : undefined
    );
    const context = widget?.context;
    void (async () => {
      if (warm) {
        // Another tab may have opened the path meanwhile; then the warm
        // kernel was not used and is shut down.
        const used =
          !!context &&
          (await context.sessionContext.ready.then(
            () => context.sessionContext.session?.kernel?.id === warm!.id,
            () => false
          ));
        if (!used) {
          await this._pool.release(warm);
        }
      } else if (context) {
        await context.sessionContext.ready.catch(() => undefined);
      }
      // The next kernel starts once this one is up, not competing with it.
      await this.refillWarm();
    })();
  }

  private _options: CaseOpener.IOptions;
  private _pool: WarmKernelPool;
  private _warmWanted = false;
}

/**
 * A namespace for CaseOpener statics.
 */
export namespace CaseOpener {
  /** Options to build an opener. */
  export interface IOptions {
    /** The casebook. */
    manager: ICasebookManager;
    /** Opens documents. */
    docManager: IDocumentManager;
    /** The notebooks open (to save a case's copies before a reset). */
    tracker: INotebookTracker;
    /** The server's services. */
    services: ServiceManager.IManager;
    /** Where working copies live. */
    workspace: Workspace;
    /** Tell the learner why something failed (an error dialog). */
    report: (title: string, message: string) => Promise<unknown>;
    /** Translation bundle. */
    trans: { __: (msgid: string, ...args: unknown[]) => string };
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Start a notebook session for a path in a kernelspec (its folder becomes
   * the kernel's working directory); a failure is left to the notebook's
   * own start, which then reports it.
   */
  export async function startSession(
    services: ServiceManager.IManager,
    path: string,
    kernel: string
  ): Promise<void> {
    try {
      const session = await services.sessions.startNew({
        path,
        type: 'notebook',
        name: path.split('/').pop() ?? path,
        kernel: { name: kernel }
      });
      session.dispose();
    } catch {
      // The notebook starts its own kernel.
    }
  }

  /**
   * The kernelspec name a notebook asks for in its metadata, or undefined.
   */
  export async function notebookKernel(
    services: ServiceManager.IManager,
    path: string
  ): Promise<string | undefined> {
    try {
      const model = await services.contents.get(path, {
        content: true,
        type: 'notebook'
      });
      const spec = (
        model.content as { metadata?: { kernelspec?: { name?: unknown } } }
      )?.metadata?.kernelspec?.name;
      return typeof spec === 'string' ? spec : undefined;
    } catch {
      return undefined;
    }
  }
}
