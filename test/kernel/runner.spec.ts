/**
 * The kernel runner against a real Jupyter server and a real Python kernel.
 */
import { renderRunStop } from '../../src/kernel/stop';
import { KernelAPI, KernelManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import { cellRef } from '../../src/i18n';
import { PlanRunner } from '../../src/kernel/runner';
import type { RunnerEvent } from '../../src/kernel/runner';
import { recordedPlan } from '../../src/replay/plan';
import type { INotebookJSON, IReplayPlan } from '../../src/replay/types';

import { sharedServer, shutdownKernel } from '../sharedServer';

jest.setTimeout(120000);

// Started without the IOPub rate limit, so a huge print reaches the runner
// whole (the default limit would drop it at the server before the cap is met).
const server = sharedServer();

/** A notebook from [source, execution_count, error?] triples. */
function notebook(cells: [string, number | null, boolean?][]): INotebookJSON {
  return {
    cells: cells.map(([source, count, error]) => ({
      cell_type: 'code',
      source,
      execution_count: count,
      outputs: error
        ? [{ output_type: 'error', ename: 'X', evalue: '', traceback: [] }]
        : []
    })),
    nbformat: 4
  };
}

/** Kernel states in which a connection is still following a (re)start. */
const FOLLOWING: Kernel.Status[] = [
  'unknown',
  'starting',
  'restarting',
  'autorestarting'
];

/**
 * Resolves once the connection has followed a restart of its kernel to the
 * end, or the kernel is gone, or after `timeoutMs`. After a restart from this
 * page or after a death, JupyterLab reconnects on its own and no one awaits
 * that: a kernel shut down while it goes on leaves the reconnect rejected
 * with no one to catch it, and the next test fails (CI run 14, under load:
 * "Kernel connection disconnected" in the test after the restart from this
 * page).
 */
async function connectionSettled(
  kernel: Kernel.IKernelConnection,
  timeoutMs = 60000
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    !kernel.isDisposed &&
    (kernel.connectionStatus === 'connecting' ||
      FOLLOWING.includes(kernel.status)) &&
    Date.now() < deadline
  ) {
    const model = await KernelAPI.getKernelModel(
      kernel.id,
      kernel.serverSettings
    ).catch(() => undefined);
    if (!model) {
      // Shut down on the server: there is nothing to reconnect to.
      return;
    }
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

/** A plan running the given sources in order. */
function plainPlan(sources: string[]): IReplayPlan {
  return recordedPlan(notebook(sources.map((s, i) => [s, i + 1])));
}

describe('PlanRunner', () => {
  let manager: KernelManager;
  let kernel: Kernel.IKernelConnection;

  beforeAll(async () => {
    manager = new KernelManager({ serverSettings: server.settings });
    await manager.ready;
  });

  afterAll(async () => {
    manager.dispose();
  });

  beforeEach(async () => {
    kernel = await manager.startNew({ name: 'python3' });
    await kernel.info;
  });

  afterEach(async () => {
    await connectionSettled(kernel);
    if (!kernel.isDisposed) {
      await kernel.shutdown().catch(() => undefined);
    }
    // A kernel that died or was restarted may still run on the shared server.
    await shutdownKernel(kernel.id);
  });

  it('runs cells in the recorded order and stops at the crash', async () => {
    // Document order: print(a) comes first but ran last; b is never defined.
    const nb = notebook([
      ['print(a + 1)\nz = b', 3, true],
      ['a = 41', 1],
      ['never_run = 1', null],
      ['a = a', 2]
    ]);
    const plan = recordedPlan(nb);
    const runner = new PlanRunner({ kernel });
    const events: RunnerEvent['type'][] = [];
    runner.event.connect((_, e) => events.push(e.type));
    const result = await runner.run(plan);
    expect(result.status).toBe('crashed');
    expect(result.steps.map(s => s.step.cellIndex)).toEqual([1, 3, 0]);
    expect(result.failedIndex).toBe(2);
    expect(result.error?.ename).toBe('NameError');
    expect(result.error?.evalue).toContain("'b'");
    expect(result.error?.line).toBe(2);
    const printed = result.steps[2].outputs.find(
      o => o.output_type === 'stream'
    );
    expect(String(printed?.text)).toBe('42\n');
    expect(events[0]).toBe('run-started');
    expect(events).toContain('step-error');
    expect(events[events.length - 1]).toBe('run-finished');
  });

  it('runs a [reexecute] cell twice', async () => {
    const nb = notebook([
      ['n = 0', 1],
      ['# [reexecute]\nn += 1', 2],
      ['assert n == 1, n', 3]
    ]);
    const result = await new PlanRunner({ kernel }).run(recordedPlan(nb));
    expect(result.status).toBe('crashed');
    expect(result.error?.ename).toBe('AssertionError');
    expect(result.error?.evalue).toBe('2');
  });

  it('completes a clean plan and reports execution counts', async () => {
    const result = await new PlanRunner({ kernel }).run(
      plainPlan(['x = 1', 'x + 1'])
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map(s => s.executionCount)).toEqual([1, 2]);
    const shown = result.steps[1].outputs[0];
    expect(shown.output_type).toBe('execute_result');
    expect((shown.data as Record<string, string>)['text/plain']).toBe('2');
  });

  it('interrupts a cell that runs past the timeout', async () => {
    const runner = new PlanRunner({ kernel, timeoutMs: 1500 });
    const result = await runner.run(
      plainPlan([
        'import time\nfor _ in range(600): time.sleep(0.1)',
        'after = 1'
      ])
    );
    expect(result.status).toBe('timeout');
    expect(result.failedIndex).toBe(0);
    expect(renderRunStop(result.stop)).toContain('1.5 s');
    expect(result.stop).toEqual({
      code: 'timeout',
      cell: cellRef(0, 1),
      seconds: 1.5
    });
    // The kernel survived the interrupt and still runs code.
    const again = await new PlanRunner({ kernel }).run(plainPlan(['1 + 1']));
    expect(again.status).toBe('completed');
  });

  it('stops on a user interrupt', async () => {
    const runner = new PlanRunner({ kernel });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started' && e.index === 1) {
        setTimeout(() => void runner.interrupt(), 500);
      }
    });
    const result = await runner.run(
      plainPlan([
        'x = 1',
        'import time\nfor _ in range(600): time.sleep(0.1)',
        'y = 2'
      ])
    );
    expect(result.status).toBe('interrupted');
    expect(result.failedIndex).toBe(1);
    expect(result.steps).toHaveLength(2);
  });

  it('reports a kernel killed mid-replay without hanging', async () => {
    const result = await new PlanRunner({ kernel }).run(
      plainPlan(['x = 1', 'import os\nos._exit(1)', 'y = 2'])
    );
    expect(result.status).toBe('kernel-died');
    expect(result.kernelFate).toBe('died');
    expect(result.failedIndex).toBe(1);
    expect(renderRunStop(result.stop)).toContain(
      'The kernel died while running cell 2'
    );
    expect(result.stop).toMatchObject({ code: 'kernel', fate: 'died' });
  });

  it('refuses a second run while one is running', async () => {
    const runner = new PlanRunner({ kernel });
    const first = runner.run(plainPlan(['import time\ntime.sleep(1)']));
    await expect(runner.run(plainPlan(['1']))).rejects.toThrow(
      /already running/
    );
    expect((await first).status).toBe('completed');
  });

  it('runs again right after a restart (Replay pressed again)', async () => {
    const first = await new PlanRunner({ kernel }).run(plainPlan(['x = 1']));
    expect(first.status).toBe('completed');
    await kernel.restart();
    const again = await new PlanRunner({ kernel }).run(
      plainPlan(['print("x" in dir())']),
      { setupCode: 'import os' }
    );
    expect(renderRunStop(again.stop)).toBe('All 1 cells ran without error.');
    expect(String(again.steps[0].outputs[0].text)).toBe('False\n');
  });

  it('runs set-up code silently first', async () => {
    const result = await new PlanRunner({ kernel }).run(
      plainPlan(['print(secret)']),
      {
        setupCode: 'secret = "set"'
      }
    );
    expect(result.status).toBe('completed');
    expect(result.steps[0].executionCount).toBe(1);
    expect(String(result.steps[0].outputs[0].text)).toBe('set\n');
  });

  it('reports a kernel shut down from elsewhere within seconds', async () => {
    const runner = new PlanRunner({ kernel });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started' && e.index === 1) {
        // Another client (a second tab, the Running panel) deletes it by REST.
        setTimeout(
          () => void KernelAPI.shutdownKernel(kernel.id, kernel.serverSettings),
          500
        );
      }
    });
    const result = await runner.run(
      plainPlan(['x = 1', 'import time\ntime.sleep(60)', 'y = 2'])
    );
    expect(result.status).toBe('kernel-died');
    expect(result.kernelFate).toBe('shut-down');
    expect(result.failedIndex).toBe(1);
    expect(renderRunStop(result.stop)).toMatch(/shut down/);
    expect(result.durationMs).toBeLessThan(20000);
  });

  it('reports a kernel shut down from this page (Running panel)', async () => {
    const runner = new PlanRunner({ kernel });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started') {
        setTimeout(() => void manager.shutdown(kernel.id), 500);
      }
    });
    const result = await runner.run(plainPlan(['import time\ntime.sleep(60)']));
    expect(result.status).toBe('kernel-died');
    expect(result.kernelFate).toBe('shut-down');
    expect(renderRunStop(result.stop)).toContain(
      'The kernel was shut down while running cell 1'
    );
  });

  it('reports a kernel restarted from this page', async () => {
    const runner = new PlanRunner({ kernel });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started') {
        // Its reconnect is the afterEach's to wait for (connectionSettled).
        setTimeout(() => void kernel.restart().catch(() => undefined), 500);
      }
    });
    const result = await runner.run(plainPlan(['import time\ntime.sleep(60)']));
    expect(result.status).toBe('kernel-died');
    expect(result.kernelFate).toBe('restarted');
  });

  it('reports a kernel restarted from elsewhere', async () => {
    const runner = new PlanRunner({ kernel });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started' && e.index === 1) {
        setTimeout(
          () => void KernelAPI.restartKernel(kernel.id, kernel.serverSettings),
          500
        );
      }
    });
    const result = await runner.run(
      plainPlan(['x = 1', 'import time\ntime.sleep(60)', 'y = 2'])
    );
    expect(result.status).toBe('kernel-died');
    expect(result.kernelFate).toBe('restarted');
    expect(result.failedIndex).toBe(1);
    expect(renderRunStop(result.stop)).toMatch(/restarted/);
    expect(result.durationMs).toBeLessThan(20000);
  });

  it('gives up on a cell that ignores the interrupt after the timeout', async () => {
    const runner = new PlanRunner({
      kernel,
      timeoutMs: 1000,
      interruptGraceMs: 1000
    });
    const result = await runner.run(
      plainPlan([
        'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)',
        'after = 1'
      ])
    );
    expect(result.status).toBe('timeout');
    expect(result.kernelFate).toBe('unresponsive');
    expect(result.failedIndex).toBe(0);
    expect(result.steps).toHaveLength(1);
    expect(renderRunStop(result.stop)).toMatch(
      /did not respond to the interrupt/
    );
    expect(result.stop).toMatchObject({
      code: 'kernel',
      fate: 'unresponsive',
      timeoutSeconds: expect.any(Number)
    });
    expect(result.durationMs).toBeLessThan(15000);
  });

  it('gives up on a user interrupt the kernel ignores', async () => {
    const runner = new PlanRunner({ kernel, interruptGraceMs: 1000 });
    runner.event.connect((_, e) => {
      if (e.type === 'step-started') {
        setTimeout(() => void runner.interrupt(), 1000);
      }
    });
    const result = await runner.run(
      plainPlan([
        'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)'
      ])
    );
    expect(result.status).toBe('interrupted');
    expect(result.kernelFate).toBe('unresponsive');
    expect(renderRunStop(result.stop)).toMatch(
      /did not respond to the interrupt/
    );
    expect(result.durationMs).toBeLessThan(15000);
  });

  it('keeps only a capped part of a 50 MB print', async () => {
    const runner = new PlanRunner({ kernel });
    let shown = 0;
    runner.event.connect((_, e) => {
      if (e.type === 'output') {
        shown += JSON.stringify(e.output).length;
      }
    });
    const result = await runner.run(
      plainPlan(["print('x' * 50_000_000)", 'done = 1'])
    );
    expect(result.status).toBe('completed');
    const outputs = result.steps[0].outputs;
    const text = outputs
      .filter(o => o.output_type === 'stream')
      .map(o => String(o.text))
      .join('');
    expect(text.length).toBeLessThan(2_000_000);
    expect(text).toContain('x'.repeat(1000));
    expect(text).toMatch(
      /\[output truncated by JunoBench: 4\d\.\d MB not shown\]/
    );
    expect(shown).toBeLessThan(2_000_000);
  });
});
