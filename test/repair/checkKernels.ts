/**
 * Fresh kernels on the shared test server for `runRepairCheck` in kernel specs, and
 * small notebooks to check: one kernel manager per spec file.
 */
import { KernelManager } from '@jupyterlab/services';

import type { IFreshKernel } from '../../src/repair/repairCheck';
import type { INbCell, INotebookJSON } from '../../src/replay/types';

import { sharedServer } from '../sharedServer';

/** The spec file's kernel manager and a fresh-kernel maker for the check. */
export interface ICheckKernels {
  /** The kernel manager (set once the spec's `beforeAll` ran). */
  manager(): KernelManager;
  /** A fresh python3 kernel for one run of the check. */
  fresh(): Promise<IFreshKernel>;
}

/** Register the spec file's kernel manager (before and after all its tests). */
export function checkKernels(): ICheckKernels {
  const server = sharedServer();
  let manager: KernelManager;
  beforeAll(async () => {
    manager = new KernelManager({ serverSettings: server.settings });
    await manager.ready;
  });
  afterAll(async () => {
    manager.dispose();
  });
  return {
    manager: () => manager,
    fresh: async () => {
      const kernel = await manager.startNew({ name: 'python3' });
      return {
        kernel,
        setupCode: '',
        dispose: async () => {
          await kernel.shutdown().catch(() => undefined);
        }
      };
    }
  };
}

/** A notebook (nbformat 4.4) of these cells. */
export function nb(cells: INbCell[]): INotebookJSON {
  return { nbformat: 4, nbformat_minor: 4, metadata: {}, cells };
}
