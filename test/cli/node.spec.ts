/**
 * The command line's guard against the rejections @jupyterlab/services
 * leaves unhandled: a Node process with it survives those rejections, and still
 * ends on any other, as Node does by default. The guard runs in child Node
 * processes (it acts on the whole process), from this module's source.
 */
import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import * as ts from 'typescript';

import { isCanceledKernelInfo } from '../../src/cli/node';

const CANCELED =
  'Canceled future for kernel_info_request message before replies were done';

describe('isCanceledKernelInfo', () => {
  it("is that request's cancellation and nothing else", () => {
    expect(isCanceledKernelInfo(new Error(CANCELED))).toBe(true);
    // The same words from other requests: ours are always awaited, so an
    // unhandled one is a bug to see.
    for (const type of [
      'execute_request',
      'inspect_request',
      'shutdown_request'
    ]) {
      expect(
        isCanceledKernelInfo(
          new Error(CANCELED.replace('kernel_info_request', type))
        )
      ).toBe(false);
    }
    // Not an Error, or the message with more around it.
    expect(isCanceledKernelInfo(CANCELED)).toBe(false);
    expect(isCanceledKernelInfo({ message: CANCELED })).toBe(false);
    expect(isCanceledKernelInfo(new Error(`${CANCELED}!`))).toBe(false);
    expect(isCanceledKernelInfo(new Error(`x ${CANCELED}`))).toBe(false);
    expect(isCanceledKernelInfo(undefined)).toBe(false);
  });
});

describe('tolerateServicesRejections', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'junobench-node-guard-'));
    // node.ts and the module it imports, as plain CommonJS beside each other.
    for (const name of ['node', 'output']) {
      const source = readFileSync(
        path.resolve(__dirname, `../../src/cli/${name}.ts`),
        'utf8'
      );
      writeFileSync(
        path.join(dir, `${name}.js`),
        ts.transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.CommonJS }
        }).outputText
      );
    }
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Run a Node process that rejects `rejection` unhandled, with or without the guard. */
  function run(rejection: string, guarded: boolean) {
    const script = [
      guarded
        ? `require(${JSON.stringify(path.join(dir, 'node.js'))}).tolerateServicesRejections();`
        : '',
      `Promise.reject(${rejection});`,
      "setTimeout(() => console.log('still running'), 200);"
    ].join('\n');
    return spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      timeout: 30000
    });
  }

  it('keeps the process running through the canceled kernel_info request', () => {
    const unguarded = run(`new Error(${JSON.stringify(CANCELED)})`, false);
    expect(unguarded.status).not.toBe(0);
    expect(unguarded.stdout).not.toContain('still running');
    const guarded = run(`new Error(${JSON.stringify(CANCELED)})`, true);
    expect(guarded.stderr).toBe('');
    expect(guarded.status).toBe(0);
    expect(guarded.stdout).toContain('still running');
  });

  it("keeps the process running through the failed reconnection of a dead kernel's connection", () => {
    const rejection = "new Error('Kernel connection disconnected')";
    expect(run(rejection, false).status).not.toBe(0);
    const guarded = run(rejection, true);
    expect(guarded.stderr).toBe('');
    expect(guarded.status).toBe(0);
    expect(guarded.stdout).toContain('still running');
  });

  it("keeps the process running through a disposed manager's poll", () => {
    const rejection =
      "new Error('Poll (@jupyterlab/services:SessionManager#models) is disposed.')";
    expect(run(rejection, false).status).not.toBe(0);
    const guarded = run(rejection, true);
    expect(guarded.stderr).toBe('');
    expect(guarded.status).toBe(0);
    expect(guarded.stdout).toContain('still running');
  });

  it('still ends the process on any other unhandled rejection', () => {
    for (const rejection of [
      "new Error('the check failed')",
      "new Error('Poll (my own poll) is disposed.')",
      JSON.stringify(CANCELED),
      `new Error(${JSON.stringify(CANCELED.replace('kernel_info_request', 'execute_request'))})`
    ]) {
      const result = run(rejection, true);
      expect(result.status).not.toBe(0);
      expect(result.stdout).not.toContain('still running');
    }
  });
});
