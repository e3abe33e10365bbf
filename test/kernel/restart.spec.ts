/**
 * The restart race (docs/faults.md), against a real Jupyter server and a plain
 * ipykernel kernelspec (no launcher of ours): many restarts through
 * `restartAnswering`, idle and while a cell runs; then the race itself,
 * provoked by a second websocket opened while the restart is pending (an
 * overlapping reconnection): the server replaces the live websocket as stale,
 * the kernel goes silent, and `restartAnswering` notices and restarts again.
 * Every restart must end with a kernel that runs code (left silent: 0).
 */
import { KernelAPI, KernelManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import { within } from '../../src/kernel/freshSession';
import { restartAnswering } from '../../src/kernel/restart';

import { addKernelspecs, sharedServer } from '../sharedServer';

/** ipykernel as `jupyter kernelspec install` writes it. */
const PLAIN = 'junobench-plain-python';

jest.setTimeout(300000);

/** Restarts of each kind. */
const RESTARTS = 20;
const PROVOKED = 8;

describe('restartAnswering', () => {
  const server = sharedServer();
  let kernels: KernelManager;
  let model: Kernel.IModel;
  let removeSpecs: () => void;

  /** Whether the kernel runs a cell within 20 s. */
  function runs(kernel: Kernel.IKernelConnection): Promise<boolean> {
    return within(
      kernel.requestExecute({ code: 'x = 1' }).done.then(
        reply => reply.content.status === 'ok',
        () => false
      ),
      20000
    );
  }

  const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

  /**
   * Restart the kernel `times` times, each through a connection of its own
   * (a silent connection's own requests stay pending: disposing of it ends
   * them quietly); `before` runs just before each restart. Says how many
   * silences were met, how many restarts left a kernel that runs no code, and
   * of those how many `restartAnswering` said answered (a silence unnoticed).
   * `before` may give the time its provocation (a second websocket) opened: one
   * that opened only after the kernel answered (a loaded machine's timers) is
   * no longer the restart's race, and a silence it causes is counted `late`.
   */
  async function restartMany(
    times: number,
    before: (
      kernel: Kernel.IKernelConnection,
      i: number
    ) => Promise<{ opened: Promise<number> } | void>,
    options: { answerMs?: number } = {}
  ): Promise<{
    silences: number;
    silent: number;
    unnoticed: number;
    late: number;
  }> {
    let silences = 0;
    let silent = 0;
    let unnoticed = 0;
    let late = 0;
    for (let i = 0; i < times; i++) {
      const kernel = kernels.connectTo({ model });
      try {
        const provoked = await before(kernel, i);
        const result = await restartAnswering(kernel, options);
        const answeredAt = Date.now();
        silences += result.silences;
        const ran = result.answered && (await runs(kernel));
        if (!ran) {
          silent += 1;
          // Not opened within 10 s: no evidence of lateness (counted unnoticed).
          const openedAt = provoked
            ? await Promise.race([provoked.opened, sleep(10000).then(() => 0)])
            : 0;
          if (result.answered && openedAt > answeredAt) {
            late += 1;
          } else {
            unnoticed += result.answered ? 1 : 0;
          }
        }
      } finally {
        kernel.dispose();
      }
    }
    return { silences, silent, unnoticed, late };
  }

  beforeAll(async () => {
    removeSpecs = addKernelspecs({
      [PLAIN]: {
        argv: ['python', '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
        display_name: 'Python 3 (plain)',
        language: 'python'
      }
    });
    kernels = new KernelManager({ serverSettings: server.settings });
    await kernels.ready;
    const kernel = await kernels.startNew({ name: PLAIN });
    model = kernel.model;
    await kernel.info;
    kernel.dispose();
  });

  afterAll(async () => {
    await KernelAPI.shutdownKernel(model.id, server.settings).catch(
      () => undefined
    );
    kernels.dispose();
    removeSpecs();
  });

  it(`answers after each of ${RESTARTS} restarts, idle and during a run`, async () => {
    const { silences, silent } = await restartMany(
      RESTARTS,
      async (kernel, i) => {
        await kernel.info;
        if (i % 2) {
          // During a run: a cell still sleeping when the restart comes.
          kernel
            .requestExecute({ code: 'import time; time.sleep(10)' })
            .done.catch(() => undefined);
          await sleep(100);
        }
      }
    );
    console.info(
      `restart race: ${RESTARTS} restarts, ${silences} silence(s) noticed and restarted again, ${silent} left silent`
    );
    expect(silent).toBe(0);
  });

  it(`notices every silence of the race provoked ${PROVOKED} times`, async () => {
    const { silences, silent, unnoticed, late } = await restartMany(
      PROVOKED,
      async kernel => {
        await kernel.info;
        // A second websocket of the same session while the restart is pending; when it opened.
        const opened = new Promise<number>(resolve =>
          setTimeout(
            () =>
              void kernel
                .reconnect()
                .catch(() => undefined)
                .then(() => resolve(Date.now())),
            100
          )
        );
        return { opened };
      },
      { answerMs: 3000 }
    );
    console.info(
      `restart race, provoked: ${PROVOKED} restarts, ${silences} silence(s) noticed and restarted again, ${silent} left silent (each reported: the replay then replaces the kernel), ${late} of them caused by a second websocket that opened only after the answer`
    );
    // How many silences the race causes depends on the machine's timing (4-5 of 8 here), and
    // further restarts end most but not all of them (1 of 8 left, 2026-12-05): none may pass
    // unnoticed, for a kernel reported silent is replaced (controllers.spec, "replaces a kernel
    // that never answers").
    expect(unnoticed).toBe(0);
    expect(silences).toBeGreaterThanOrEqual(silent);
  });
});
