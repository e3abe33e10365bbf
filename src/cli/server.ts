/**
 * Starting a private Jupyter server on loopback for headless runs.
 */
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import { appendFileSync, readdirSync, readFileSync } from 'fs';
import * as net from 'net';
import * as path from 'path';

import { ServerConnection } from '@jupyterlab/services';

import { onExit } from './node';

/** A running Jupyter server the command line talks to. */
export interface IServerHandle {
  /** Base URL, ending with `/`. */
  url: string;
  /** Token. */
  token: string;
  /** Settings for `@jupyterlab/services` managers. */
  settings: ServerConnection.ISettings;
  /** Stop the server if we started it (no-op for an external one). */
  stop(): Promise<void>;
  /** The last lines the server we started wrote to its log (empty for an external one). */
  log(): string;
  /**
   * Resolves, with why in a sentence, when a server we started ends before
   * `stop()` asked it to (never for an external one): see `whileServing`.
   */
  lost: Promise<string>;
}

/** The server a command runs on ended under it (see `whileServing`). */
export class ServerLostError extends Error {}

/**
 * What `work` resolves to, unless the server we started ends first: then a
 * `ServerLostError` that says so, at once, rather than requests that wait for
 * a server that is gone.
 */
export function whileServing<T>(
  server: IServerHandle,
  work: Promise<T>
): Promise<T> {
  return Promise.race([
    work,
    server.lost.then(why => {
      throw new ServerLostError(why);
    })
  ]);
}

/**
 * Connection settings for a server given by URL and token.
 */
export function settingsFor(
  url: string,
  token: string
): ServerConnection.ISettings {
  const baseUrl = url.endsWith('/') ? url : `${url}/`;
  const wsUrl = baseUrl.replace(/^http/, 'ws');
  const options = {
    baseUrl,
    wsUrl,
    token,
    appendToken: true,
    init: { cache: 'no-store' as const }
  };
  const plain = ServerConnection.makeSettings(options);
  if (!token) {
    return plain;
  }
  // A JupyterHub single-user server ignores `?token=` on a websocket request
  // that does not come from a browser (no `Sec-Fetch-Mode: websocket`), so the
  // kernel channels also carry the token in the Authorization header.
  return ServerConnection.makeSettings({
    ...options,
    WebSocket: Private.withAuthorization(plain.WebSocket, token)
  });
}

/**
 * Use an already running server.
 */
export function externalServer(url: string, token: string): IServerHandle {
  return {
    url,
    token,
    settings: settingsFor(url, token),
    stop: async () => undefined,
    log: () => '',
    lost: new Promise<string>(() => undefined)
  };
}

/**
 * The environment variable that marks a started server and every process it
 * starts (its kernels inherit it), so that none of them outlives `stop()`.
 */
export const SERVER_MARK_ENV = 'JUNOBENCH_SERVER_MARK';

/**
 * Throw `ServerLostError` when the server we started goes away within `ms`:
 * a server killed under a check fails its requests (and so leaves the repair
 * not checked) a moment before its exit is seen. Called on such a verdict,
 * so that it names the server rather than the failed requests.
 */
export async function confirmServing(
  server: IServerHandle,
  ms = 1000
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await whileServing(
    server,
    new Promise<void>(resolve => {
      timer = setTimeout(resolve, ms);
    })
  ).finally(() => clearTimeout(timer));
}

/**
 * Start `jupyter server` on 127.0.0.1 with a fresh token (or `token`) on a
 * free port (or `port`, to start a stopped server again at the same URL),
 * serving `rootDir`, and wait until it answers: for up to `timeoutMs` (three
 * minutes by default; a server started at low priority beside a busy suite
 * took more than one in CI), or until it exits. With `logFile`, everything the
 * server writes to its log is also appended to that file (the test suite keeps
 * its shared server's log this way, to show why a kernel failed).
 *
 * The server, and every process it starts, carries a mark of its own in its
 * environment (`SERVER_MARK_ENV`): `stop()` asks the server to stop (it shuts
 * its kernels down), kills it after 8 s, then kills whatever still carries the
 * mark (Linux), so that no kernel outlives it. Until `stop()` the server is
 * registered with `onExit` (src/cli/node.ts). With `ownProcessGroup` it runs
 * in a process group of its own, so that a terminal's Ctrl-C reaches only
 * this process, which then stops the server in order (the command line does
 * this; its group is killed with it).
 */
export async function startServer(options: {
  rootDir: string;
  command?: string;
  extraArgs?: string[];
  timeoutMs?: number;
  port?: number;
  token?: string;
  logFile?: string;
  ownProcessGroup?: boolean;
}): Promise<IServerHandle> {
  const port = options.port ?? (await freePort());
  const token = options.token ?? randomBytes(24).toString('hex');
  const url = `http://127.0.0.1:${port}/`;
  const args = [
    'server',
    '--no-browser',
    `--ServerApp.root_dir=${options.rootDir}`,
    '--ServerApp.ip=127.0.0.1',
    `--ServerApp.port=${port}`,
    '--ServerApp.port_retries=0',
    `--IdentityProvider.token=${token}`,
    '--ServerApp.disable_check_xsrf=True',
    ...(process.getuid && process.getuid() === 0 ? ['--allow-root'] : []),
    ...(options.extraArgs ?? [])
  ];
  const mark = randomBytes(12).toString('hex');
  const group = options.ownProcessGroup ?? false;
  const child = spawn(options.command ?? 'jupyter', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: group,
    env: {
      ...process.env,
      MPLBACKEND: process.env.MPLBACKEND ?? 'Agg',
      [SERVER_MARK_ENV]: mark
    }
  });
  const unregister = onExit({
    kind: 'server',
    stop: () => stop(),
    stopNow: () => Private.signal(child, group, 'SIGTERM')
  });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    unregister();
    await stopChild(child, group);
    Private.killMarked(mark);
  };
  const lost = new Promise<string>(resolve =>
    child.once('exit', (code, sig) => {
      if (!stopping) {
        resolve(
          `the Jupyter server it started (${url}) stopped ${sig ? `on signal ${sig}` : `with exit code ${code}`} while it ran`
        );
      }
    })
  );
  let stderr = '';
  child.stderr?.on('data', chunk => {
    stderr = (stderr + String(chunk)).slice(-Private.LOG_CHARS);
    if (options.logFile) {
      try {
        appendFileSync(options.logFile, chunk);
      } catch {
        // The log in memory is still kept.
      }
    }
  });
  const settings = settingsFor(url, token);
  const limitMs = options.timeoutMs ?? 180000;
  const deadline = Date.now() + limitMs;
  let exited: number | null = null;
  let failed: Error | null = null;
  child.on('exit', code => {
    exited = code ?? -1;
  });
  // A missing `jupyter` command is an 'error' event, not an exit: say so instead of crashing.
  child.on('error', reason => {
    failed = reason;
  });
  for (;;) {
    if (failed !== null) {
      unregister();
      const reason = failed as NodeJS.ErrnoException;
      throw new Error(
        reason.code === 'ENOENT'
          ? `cannot start a Jupyter server: the command "${options.command ?? 'jupyter'}" was not found (activate the environment that has JupyterLab, e.g. . .venv/bin/activate)`
          : `cannot start a Jupyter server: ${reason.message}`
      );
    }
    if (exited !== null) {
      await stop();
      throw new Error(
        `jupyter server exited with code ${exited} before answering:\n${stderr.slice(-4000)}`
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `jupyter server did not answer within ${Math.round(limitMs / 1000)} s:\n${stderr.slice(-4000)}`
      );
    }
    try {
      const response = await fetch(`${url}api/status?token=${token}`);
      if (response.ok) {
        break;
      }
    } catch {
      // not up yet
    }
    await new Promise(resolve => setTimeout(resolve, 150));
  }
  return {
    url,
    token,
    settings,
    stop,
    log: () => stderr,
    lost
  };
}

/**
 * Ask the server to stop (it shuts its kernels down), kill it after 8 s, and
 * with its own process group, kill what is left in that group.
 */
async function stopChild(child: ChildProcess, group: boolean): Promise<void> {
  // A server killed by a signal (one that went away) has a signal code and no exit code.
  if (child.exitCode === null && child.signalCode === null) {
    const done = new Promise<void>(resolve =>
      child.once('exit', () => resolve())
    );
    Private.signal(child, group, 'SIGTERM');
    const timer = setTimeout(
      () => Private.signal(child, group, 'SIGKILL'),
      8000
    );
    await done;
    clearTimeout(timer);
  }
  if (group) {
    Private.signal(child, true, 'SIGKILL');
  }
}

/**
 * A TCP port free on loopback right now.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The options every command that runs kernels takes (`parseArgs` form): the
 * kernel, the per-cell timeout, and an existing server with its token and root.
 */
export const KERNEL_OPTIONS = {
  kernel: { type: 'string', default: 'python3' },
  timeout: { type: 'string', default: '300' },
  server: { type: 'string' },
  token: { type: 'string', default: '' },
  'server-root': { type: 'string' }
} as const;

/**
 * The server a command talks to: the one given by `--server`/`--token`
 * (whose root is `--server-root`, default the working directory), or a
 * private one started on the casebook folder.
 */
export async function serverFor(
  options: { server?: string; token?: string; serverRoot?: string },
  casebookDir: string
): Promise<{ server: IServerHandle; serverRoot: string }> {
  if (options.server) {
    return {
      server: externalServer(options.server, options.token ?? ''),
      serverRoot: path.resolve(options.serverRoot ?? process.cwd())
    };
  }
  return {
    server: await startServer({ rootDir: casebookDir, ownProcessGroup: true }),
    serverRoot: casebookDir
  };
}

/**
 * The server for the parsed KERNEL_OPTIONS of a command (see serverFor).
 */
export function serverForOptions(
  values: { server?: string; token?: string; 'server-root'?: string },
  casebookDir: string
): Promise<{ server: IServerHandle; serverRoot: string }> {
  return serverFor(
    {
      server: values.server,
      token: values.token,
      serverRoot: values['server-root']
    },
    casebookDir
  );
}

namespace Private {
  /** How much of a started server's log is kept (its end). */
  export const LOG_CHARS = 65536;

  /**
   * Send a signal to a started server, or to its whole process group; a
   * process already gone is no error.
   */
  export function signal(
    child: ChildProcess,
    group: boolean,
    sig: NodeJS.Signals
  ): void {
    try {
      if (group && child.pid) {
        process.kill(-child.pid, sig);
      } else if (child.exitCode === null && child.signalCode === null) {
        child.kill(sig);
      }
    } catch {
      // Already gone.
    }
  }

  /**
   * Kill every process that still carries a server's mark in its environment
   * (a kernel its server could not shut down before it was killed). Reads
   * `/proc`, so Linux only; elsewhere the server's own shutdown is all.
   */
  export function killMarked(mark: string): void {
    const needle = `${SERVER_MARK_ENV}=${mark}\0`;
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return;
    }
    for (const entry of entries) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) {
        continue;
      }
      try {
        if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) {
          process.kill(pid, 'SIGKILL');
        }
      } catch {
        // Gone meanwhile, or another user's.
      }
    }
  }

  /** The constructor of the `ws` package, which Node's services use. */
  type NodeWebSocket = new (
    url: string | URL,
    protocols?: string | string[],
    options?: { headers?: Record<string, string> }
  ) => WebSocket;

  /**
   * A websocket class that sends `Authorization: token <token>` when it opens.
   */
  export function withAuthorization(
    base: typeof WebSocket,
    token: string
  ): typeof WebSocket {
    const Base = base as unknown as NodeWebSocket;
    class TokenWebSocket extends Base {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { headers: { Authorization: `token ${token}` } });
      }
    }
    return TokenWebSocket as unknown as typeof WebSocket;
  }
}
