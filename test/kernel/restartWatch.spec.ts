/**
 * A restart the learner asks for (`ISessionContext.restartKernel`, what the
 * toolbar, the Kernel menu and "Restart and Run All" call) is watched by
 * `RestartWatch`: against a real Jupyter server and a plain ipykernel
 * kernelspec, the restart race is provoked at each restart (a second websocket
 * of the session opened while the restart is pending, docs/faults.md), and
 * after each the notebook's kernel must run code. Without the watch about half
 * of these restarts leave a kernel that never answers.
 */
import { SessionContext } from '@jupyterlab/apputils';
import { ServiceManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import { within } from '../../src/kernel/freshSession';
import { RestartWatch } from '../../src/kernel/restartWatch';

import { addKernelspecs, sharedServer } from '../sharedServer';

/** ipykernel as `jupyter kernelspec install` writes it. */
const PLAIN = 'junobench-plain-watch';

/** Provoked restarts, one notebook session each. */
const ROUNDS = 6;

jest.setTimeout(400000);

describe('RestartWatch', () => {
  const server = sharedServer();
  let manager: ServiceManager;
  let removeSpecs: () => void;

  /** Whether the kernel runs a cell within 20 s. */
  function runs(kernel: Kernel.IKernelConnection | null | undefined) {
    if (!kernel) {
      return Promise.resolve(false);
    }
    return within(
      kernel.requestExecute({ code: 'x = 1' }).done.then(
        reply => reply.content.status === 'ok',
        () => false
      ),
      20000
    );
  }

  /** A notebook's session context on the plain kernel, started. */
  async function notebookSession(i: number): Promise<SessionContext> {
    const context = new SessionContext({
      sessionManager: manager.sessions,
      specsManager: manager.kernelspecs,
      path: `restart-watch-${Date.now()}-${i}.ipynb`,
      type: 'notebook',
      kernelPreference: { name: PLAIN }
    });
    await context.initialize();
    await context.session!.kernel!.info;
    return context;
  }

  beforeAll(async () => {
    removeSpecs = addKernelspecs({
      [PLAIN]: {
        argv: ['python', '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
        display_name: 'Python 3 (plain, watched)',
        language: 'python'
      }
    });
    manager = new ServiceManager({ serverSettings: server.settings });
    await manager.ready;
    await manager.kernelspecs.refreshSpecs();
  });

  afterAll(() => {
    manager.dispose();
    removeSpecs();
  });

  it('watches the learner’s restarts, not a restart made on the connection alone', async () => {
    const context = await notebookSession(0);
    // Disposed in the finally block.
    // eslint-disable-next-line jupyter/require-disposable-ownership
    const watch = new RestartWatch({ session: context });
    try {
      // The replay's restart (`restartAnswering`) watches itself.
      await context.session!.kernel!.restart();
      // Answered after the connection's own request, which a restart now would cancel.
      await context.session!.kernel!.requestKernelInfo();
      expect(watch.current).toBeNull();
      expect(watch.watched).toBe(0);
      await context.restartKernel();
      expect(watch.current).not.toBeNull();
      await expect(watch.current).resolves.toEqual({
        silences: 0,
        answered: true,
        replaced: false
      });
      expect(watch.watched).toBe(1);
    } finally {
      watch.dispose();
      await context.shutdown();
      context.dispose();
    }
  });

  it(`the kernel runs code after each of ${ROUNDS} restarts with the race provoked`, async () => {
    let silences = 0;
    let replaced = 0;
    let silent = 0;
    const events: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const context = await notebookSession(i + 1);
      // Disposed in the finally block.
      // eslint-disable-next-line jupyter/require-disposable-ownership
      const watch = new RestartWatch({ session: context, answerMs: 3000 });
      watch.event.connect((_, e) => void events.push(e.code));
      const kernel = context.session!.kernel!;
      let provoked = false;
      context.statusChanged.connect((_, status) => {
        if (status === 'restarting' && context.isRestarting && !provoked) {
          provoked = true;
          // A second websocket of the same session while the restart is pending.
          setTimeout(() => void kernel.reconnect().catch(() => undefined), 100);
        }
      });
      // The watch begins as the restart ends; connected after it, this sees it begin.
      const watches = new Set<Promise<RestartWatch.IOutcome>>();
      context.statusChanged.connect(() => {
        if (watch.current) {
          watches.add(watch.current);
        }
      });
      try {
        await context.restartKernel();
        expect(watches.size).toBe(1);
        const [outcome] = await Promise.all(watches);
        silences += outcome.silences;
        replaced += outcome.replaced ? 1 : 0;
        if (!(await runs(context.session?.kernel))) {
          silent += 1;
        }
      } finally {
        watch.dispose();
        // A silent connection's own requests stay pending: the session's end ends them quietly.
        await context.shutdown().catch(() => undefined);
        context.dispose();
      }
    }
    console.info(
      `restart watch: ${ROUNDS} restarts by the learner, the race provoked: ${silences} silence(s) noticed and restarted again, ${replaced} kernel(s) replaced, ${silent} left silent; events: ${events.join(' ') || 'none'}`
    );
    expect(silent).toBe(0);
    // Every silence was told to the learner.
    expect(events.filter(e => e === 'silent')).toHaveLength(silences);
  });
});
