/**
 * A headless session is handed over only once its kernel has answered: a
 * kernel that never answers is reported by name within the time allowed
 * (and shut down), a real kernel is ready for its first cell, and a kernel
 * websocket that stays open but passes no answer (as one replaced as stale
 * behind a Kernel Gateway does) is replaced by a new one, and so is a kernel
 * process that hangs before it answers anything.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import type { Session } from '@jupyterlab/services';

import { externalServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { sessionsFor } from '../../src/cli/session';
import { startSession, uniqueSuffix } from '../../src/kernel/freshSession';
import {
  addKernelspecs,
  hangOnceKernelspec,
  muteKernelspec,
  sharedServer
} from '../sharedServer';

jest.setTimeout(120000);

describe('startSession', () => {
  let server: IServerHandle;
  let removeKernelspecs: () => void;

  let markers: string;

  beforeAll(() => {
    server = sharedServer();
    markers = mkdtempSync(path.join(os.tmpdir(), 'junobench-hang-'));
    removeKernelspecs = addKernelspecs({
      // A "kernel" that starts and never opens its channels.
      mute: muteKernelspec('Mute'),
      // A kernel whose first process hangs before it opens its channels (its
      // marker file says a process has started); every later one is ipykernel.
      'hang-once': hangOnceKernelspec(
        path.join(markers, 'started'),
        'Hangs once'
      )
    });
  });

  afterAll(() => {
    removeKernelspecs?.();
    rmSync(markers, { recursive: true, force: true });
  });

  it('waits for a real kernel to answer, then runs its first cell', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      const connection = await startSession(sessions, {
        path: `ready-${uniqueSuffix()}.ipynb`,
        name: 'ready.ipynb'
      });
      await Private.firstCellRunsThenShutDown(connection);
    } finally {
      dispose();
    }
  });

  describe('a fresh kernel ends quickly when it is shut down', () => {
    let dir: string;

    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'junobench-exit-'));
    });

    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it("still runs the notebook's exit functions once, flushes what it left open, and leaves its namespace and count alone", async () => {
      const { sessions, dispose } = sessionsFor(server.settings);
      try {
        const connection = await startSession(sessions, {
          path: `exit-${uniqueSuffix()}.ipynb`,
          name: 'exit.ipynb'
        });
        const kernel = connection.kernel!;
        const first = await kernel.requestExecute({
          code: Private.leftBehind(dir)
        }).done;
        expect(first.content.status).toBe('ok');
        // The first cell the notebook runs is its first: nothing before it counted.
        expect(
          (first.content as { execution_count: number }).execution_count
        ).toBe(1);
        const names = await Private.evaluate(
          connection,
          "sorted(n for n in dir() if 'junobench' in n)"
        );
        expect(names).toBe('[]');
        await connection.shutdown();
        expect(Private.read(dir, 'atexit.txt')).toBe('ran\n');
        expect(Private.read(dir, 'open.txt')).toBe('x'.repeat(5000));
        expect(Private.read(dir, 'cycle.txt')).toBe('finalized\n');
      } finally {
        dispose();
      }
    });

    it("skips the interpreter's tear-down of its modules, while what the namespace held is still finalized", async () => {
      const { sessions, dispose } = sessionsFor(server.settings);
      try {
        const connection = await startSession(sessions, {
          path: `exit-${uniqueSuffix()}.ipynb`,
          name: 'exit.ipynb'
        });
        const reply = await connection.kernel!.requestExecute({
          code: Private.markers(dir)
        }).done;
        expect(reply.content.status).toBe('ok');
        await connection.shutdown();
        // The exit functions ran (IPython's cleared the namespace, finalizing its marker)...
        expect(Private.read(dir, 'namespace.txt')).toBe('finalized\n');
        // ...and the modules were never torn down: a kernel that is, finalizes this one too.
        expect(Private.read(dir, 'module.txt')).toBeNull();
      } finally {
        dispose();
      }
    });
  });

  it('names a kernel that never answers and shuts it down', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      await expect(
        startSession(sessions, {
          path: `mute-${uniqueSuffix()}.ipynb`,
          name: 'mute.ipynb',
          kernel: 'mute',
          readyMs: 3000
        })
      ).rejects.toThrow('the kernel "mute" did not answer within 3 s');
      await sessions.refreshRunning();
      expect([...sessions.running()].map(s => s.kernel?.name)).not.toContain(
        'mute'
      );
    } finally {
      dispose();
    }
  });

  it('replaces a kernel that hangs before it answers, once, and shuts the hung one down', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    const name = `hang-${uniqueSuffix()}.ipynb`;
    try {
      const connection = await startSession(sessions, {
        path: name,
        name,
        kernel: 'hang-once',
        readyMs: 90000,
        attemptMs: 2000,
        replaceMs: 6000
      });
      await sessions.refreshRunning();
      const left = [...sessions.running()].filter(s => s.path === name);
      // The hung kernel is gone; the session left is the one handed over.
      expect(left.map(s => s.kernel?.id)).toEqual([connection.kernel!.id]);
      await Private.firstCellRunsThenShutDown(connection);
    } finally {
      dispose();
    }
  });

  it('replaces a kernel websocket that stays open but passes no answer', async () => {
    const proxy = await Private.muteFirstKernelSocket(server.url);
    const { sessions, dispose } = sessionsFor(
      externalServer(proxy.url, server.token).settings
    );
    try {
      const connection = await startSession(sessions, {
        path: `stale-${uniqueSuffix()}.ipynb`,
        name: 'stale.ipynb',
        readyMs: 60000,
        attemptMs: 3000
      });
      // The first websocket was opened and then said nothing: the session is handed
      // over on another one, which carries a cell's answer.
      expect(proxy.muted()).toBe(1);
      expect(proxy.kernelSockets()).toBeGreaterThan(1);
      await Private.firstCellRunsThenShutDown(connection);
    } finally {
      dispose();
      proxy.close();
    }
  });
});

namespace Private {
  /**
   * A cell that registers an exit function writing `atexit.txt`, leaves a
   * file open with unflushed text (`open.txt`, held by a name) and an object
   * in a reference cycle, held by a name, that writes `cycle.txt` when it is
   * finalized: once the namespace is cleared at exit, only a collection
   * finds it (as the interpreter's last one would).
   */
  export function leftBehind(dir: string): string {
    return [
      'import atexit',
      `folder = ${JSON.stringify(dir)}`,
      "atexit.register(lambda: open(folder + '/atexit.txt', 'a').write('ran\\n'))",
      "handle = open(folder + '/open.txt', 'w')",
      "handle.write('x' * 5000)",
      'class Holder:',
      "    path = folder + '/cycle.txt'",
      '    def __del__(self):',
      "        open(self.path, 'a').write('finalized\\n')",
      'holder = Holder()',
      'holder.me = holder'
    ].join('\n');
  }

  /**
   * A cell that makes two objects that write `<where>.txt` when they are
   * finalized: one held by a name in the namespace, one kept in a module of
   * its own (finalized only when the interpreter tears its modules down).
   */
  export function markers(dir: string): string {
    return [
      'import sys, types',
      'class Marker:',
      '    def __init__(self, path):',
      '        self.path = path',
      '    def __del__(self):',
      "        open(self.path, 'a').write('finalized\\n')",
      `held = Marker(${JSON.stringify(path.join(dir, 'namespace.txt'))})`,
      "module = types.ModuleType('junobench_exit_marker')",
      `module.marker = Marker(${JSON.stringify(path.join(dir, 'module.txt'))})`,
      "sys.modules['junobench_exit_marker'] = module",
      'del module'
    ].join('\n');
  }

  /** A file's text, or null when there is none. */
  export function read(dir: string, name: string): string | null {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }

  /** The repr of an expression evaluated silently in the session's kernel. */
  export async function evaluate(
    connection: Session.ISessionConnection,
    expression: string
  ): Promise<string> {
    const reply = await connection.kernel!.requestExecute({
      code: '',
      silent: true,
      store_history: false,
      user_expressions: { value: expression }
    }).done;
    const content = reply.content as {
      user_expressions: Record<string, { data?: Record<string, string> }>;
    };
    return content.user_expressions.value?.data?.['text/plain'] ?? '';
  }

  /** The session's kernel answers a first cell; then the session is shut down. */
  export async function firstCellRunsThenShutDown(
    connection: Session.ISessionConnection
  ): Promise<void> {
    const reply = await connection.kernel!.requestExecute({ code: '1 + 1' })
      .done;
    expect(reply.content.status).toBe('ok');
    await connection.shutdown();
  }

  /**
   * A TCP proxy in front of the server whose first kernel websocket is
   * upgraded and then passes nothing from the server: the client sees it
   * connected, its requests reach the kernel, no answer comes back.
   */
  export async function muteFirstKernelSocket(target: string): Promise<{
    url: string;
    muted(): number;
    kernelSockets(): number;
    close(): void;
  }> {
    const to = new URL(target);
    let kernelSockets = 0;
    let muted = 0;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer(client => {
      const upstream = net.connect(Number(to.port), to.hostname);
      sockets.add(client).add(upstream);
      let head = Buffer.alloc(0);
      let decided = false;
      let mute = false;
      let upgraded = false;
      let answer = Buffer.alloc(0);
      client.on('data', chunk => {
        if (!decided) {
          head = Buffer.concat([head, chunk]);
          const line = head.toString('latin1').split('\r\n')[0];
          if (!line.includes(' ')) {
            return;
          }
          decided = true;
          if (/^GET \S*\/api\/kernels\/[^/]+\/channels/.test(line)) {
            kernelSockets++;
            mute = kernelSockets === 1;
            muted += mute ? 1 : 0;
          }
          upstream.write(head);
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', chunk => {
        if (!mute) {
          client.write(chunk);
          return;
        }
        if (upgraded) {
          return; // the websocket's frames from the server are swallowed
        }
        // Let the upgrade's answer through, then nothing.
        answer = Buffer.concat([answer, chunk]);
        const end = answer.indexOf('\r\n\r\n');
        if (end >= 0) {
          upgraded = true;
          client.write(answer.subarray(0, end + 4));
        }
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as net.AddressInfo).port;
    return {
      url: `http://127.0.0.1:${port}${to.pathname}`,
      muted: () => muted,
      kernelSockets: () => kernelSockets,
      close: () => {
        for (const socket of sockets) {
          socket.destroy();
        }
        proxy.close();
      }
    };
  }
}
