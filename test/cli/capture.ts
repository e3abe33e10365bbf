/**
 * Running the command line in-process, as the CLI tests do, and capturing
 * what it prints (not a spec file).
 */
import { main } from '../../src/cli/main';
import type { IServerHandle } from '../../src/cli/server';

/** What one run of the command line printed, and its exit code. */
export interface ICliRun {
  /** The exit code `main` resolved with. */
  code: number;
  /** The text of each `console.log` call, in order. */
  out: string[];
  /** The text of each `console.error` call, in order. */
  err: string[];
  /**
   * Everything that went to stdout, in order: each `console.log` line with
   * its newline, and what was written to `process.stdout` directly.
   */
  stdout: string;
}

/** Run `junobench <args>` and capture `console.log`, `console.error` and `process.stdout`. */
export async function runCli(args: string[]): Promise<ICliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...a) => {
    out.push(a.join(' '));
    stdout.push(`${a.join(' ')}\n`);
  });
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...a) => void err.push(a.join(' ')));
  const write = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation(chunk => {
      stdout.push(String(chunk));
      return true;
    });
  try {
    const code = await main(args);
    return { code, out, err, stdout: stdout.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

/** The options that point a command at a running server whose root is `root`. */
export function serverArgs(server: IServerHandle, root: string): string[] {
  return [
    '--server',
    server.url,
    '--token',
    server.token,
    '--server-root',
    root
  ];
}
