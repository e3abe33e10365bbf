/**
 * `junobench verify` against a real Jupyter server started on loopback.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { loadLocalCasebook, verifyCasebook } from '../../src/cli/verify';

import { runCli, serverArgs } from './capture';

jest.setTimeout(180000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');

describe('junobench verify', () => {
  let server: IServerHandle;

  beforeAll(async () => {
    // Serve the folder above the casebook, to exercise --server-root mapping.
    server = await startServer({ rootDir: ROOT });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('passes a demo case on a given server and reports per case', async () => {
    const book = await loadLocalCasebook(DEMO);
    const reports = await verifyCasebook({
      casebook: book,
      casebookDir: DEMO,
      cases: ['numpy_1'],
      settings: server.settings,
      serverRoot: ROOT,
      timeoutMs: 120000
    });
    expect(reports).toHaveLength(1);
    expect(reports[0].name).toBe('numpy_1');
    expect(reports[0].reproduced.verdict).toBe('pass');
    expect(reports[0].reproduced.observed).toMatch(
      /^ValueError: operands could not be broadcast/
    );
    expect(reports[0].fixed.verdict).toBe('pass');
    expect(reports[0].verdict).toBe('pass');
  });

  it('prints the table and the closing line through --server and --token', async () => {
    const { code, out } = await runCli([
      'verify',
      DEMO,
      '--cases',
      'pandas_1',
      ...serverArgs(server, ROOT)
    ]);
    expect(code).toBe(0);
    expect(out.some(l => /^pandas_1\s+pass\s+pass\s+pass/.test(l))).toBe(true);
    expect(out[out.length - 1]).toBe('1 passed, 0 failed');
  });

  it('says once per run which library versions differ from the benchmark pins, in text and JSON', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'junobench-verify-'));
    const jsonFile = path.join(dir, 'verify.json');
    const { code, out } = await runCli([
      'verify',
      DEMO,
      '--cases',
      'numpy_1',
      ...serverArgs(server, ROOT),
      '--json',
      jsonFile
    ]);
    expect(code).toBe(0);
    const lines = out.filter(l => l.startsWith('environment:'));
    // The test environment is not the benchmark's (scikit-learn is not 1.2.2,
    // the deep-learning libraries are absent): one line lists the differences.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^environment: \d+ librar(y differs|ies differ) from the benchmark pins: [\w-]+ (\S+|not installed) \(pinned [\d.]+(, local substitute)?\)(, [\w-]+ (\S+|not installed) \(pinned [\d.]+(, local substitute)?\))*(; Python \S+ \(pinned 3\.10(, local substitute)?\))?$/
    );
    const json = JSON.parse(readFileSync(jsonFile, 'utf8'));
    rmSync(dir, { recursive: true, force: true });
    expect(json.environment.summary).toBe(lines[0]);
    expect(json.environment.kernelCwd).toBe('notebook-folder');
    expect(json.environment.probe.prefix).toBeTruthy();
    expect(json.environment.probe.versions.numpy).toMatch(/^\d+\./);
    const n = Number(/^environment: (\d+)/.exec(lines[0])![1]);
    expect(json.environment.drift.differences).toHaveLength(n);
    expect(json.reports[0].verdict).toBe('pass');
  });

  it('rejects an unknown case name', async () => {
    const book = await loadLocalCasebook(DEMO);
    await expect(
      verifyCasebook({
        casebook: book,
        casebookDir: DEMO,
        cases: ['nope_1'],
        settings: server.settings,
        serverRoot: ROOT
      })
    ).rejects.toThrow(/No such case in casebook: nope_1/);
  });

  it('fails a case whose crash differs from the recorded exception', async () => {
    const book = await loadLocalCasebook(DEMO);
    const c = book.cases.find(x => x.name === 'numpy_1')!;
    const mislabelled = { ...book, cases: [{ ...c, ename: 'typeerror' }] };
    const reports = await verifyCasebook({
      casebook: mislabelled,
      casebookDir: DEMO,
      settings: server.settings,
      serverRoot: ROOT
    });
    expect(reports[0].reproduced.verdict).toBe('fail');
    expect(reports[0].reproduced.reason).toMatch(/recorded: typeerror/);
    expect(reports[0].verdict).toBe('fail');
  });
});
