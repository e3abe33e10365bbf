/**
 * `junobench verify` against a real Jupyter server started on loopback.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { loadLocalCasebook, verifyCasebook } from '../../src/cli/verify';
import { sourceText } from '../../src/replay/plan';
import type { INotebookJSON } from '../../src/replay/types';

import { runCli, serverArgs } from './capture';
import { sharedServer } from '../sharedServer';

jest.setTimeout(180000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');

describe('junobench verify', () => {
  let server: IServerHandle;

  beforeAll(() => {
    // The shared server's root stands for the folder above the casebook, to
    // exercise --server-root mapping.
    server = sharedServer();
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
      /^environment: the server's Python; \d+ librar(y differs|ies differ) from the benchmark pins: [\w-]+ (\S+|not installed) \(pinned [\d.]+(, local substitute)?\)(, [\w-]+ (\S+|not installed) \(pinned [\d.]+(, local substitute)?\))*(; Python \S+ \(pinned 3\.10(, local substitute)?\))?$/
    );
    const json = JSON.parse(readFileSync(jsonFile, 'utf8'));
    rmSync(dir, { recursive: true, force: true });
    expect(json.environment.summary).toBe(lines[0]);
    expect(json.environment.kernelCwd).toBe('notebook-folder');
    // The jest server has no junobench kernels: the server's default kernel, chosen by auto.
    expect(json.environment.environment).toBe('server');
    expect(json.environment.image).toBeNull();
    expect(json.environment.kernel).toBe('python3');
    expect(json.environment.choice).toEqual({
      wanted: 'auto',
      environment: 'server',
      fellBack: false
    });
    expect(json.environment.drift.environment).toBe('server');
    expect(json.environment.probe.prefix).toBeTruthy();
    expect(json.environment.probe.versions.numpy).toMatch(/^\d+\./);
    const n = Number(/; (\d+) librar/.exec(lines[0])![1]);
    expect(json.environment.drift.differences).toHaveLength(n);
    expect(json.reports[0].verdict).toBe('pass');
  });

  it('falls back from --environment container to the server’s Python when the server has no container kernel, and says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'junobench-verify-'));
    const jsonFile = path.join(dir, 'verify.json');
    const { code, out } = await runCli([
      'verify',
      DEMO,
      '--cases',
      'numpy_1',
      ...serverArgs(server, ROOT),
      '--environment',
      'container',
      '--json',
      jsonFile
    ]);
    const json = JSON.parse(readFileSync(jsonFile, 'utf8'));
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    const lines = out
      .flatMap(l => l.split('\n'))
      .filter(l => l.startsWith('environment:'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "environment: no benchmark container kernel on this server; using the server's Python"
    );
    expect(lines[1]).toMatch(/^environment: the server's Python; /);
    expect(json.environment.choice).toEqual({
      wanted: 'container',
      environment: 'server',
      fellBack: true
    });
    expect(json.environment.environment).toBe('server');
  });

  it('rejects an unknown --environment before starting anything', async () => {
    const { code, err } = await runCli([
      'verify',
      DEMO,
      '--environment',
      'cloud',
      ...serverArgs(server, ROOT)
    ]);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(
      /--environment must be one of auto, container, pinned, server, not "cloud"/
    );
  });

  it('reports a fixed notebook whose first cell imports a missing module as missing-dependency', async () => {
    // A copy of the demo casebook whose numpy_1 fix first imports a module
    // that does not exist: its NameErrors further on must not read as a failed fix.
    const dir = mkdtempSync(path.join(tmpdir(), 'junobench-verify-'));
    const book = path.join(dir, 'casebook');
    cpSync(DEMO, book, { recursive: true });
    const fixedFile = path.join(book, 'benchmark/numpy_1/numpy_1_fixed.ipynb');
    const nb = JSON.parse(readFileSync(fixedFile, 'utf8')) as INotebookJSON;
    const first = nb.cells.find(c => c.cell_type === 'code')!;
    expect(nb.cells.indexOf(first)).toBe(1);
    expect(first.execution_count).toBe(1);
    first.source = `import junobench_no_such_module\n${sourceText(first)}`;
    writeFileSync(fixedFile, JSON.stringify(nb));
    const own = await startServer({ rootDir: dir });
    try {
      const jsonFile = path.join(dir, 'verify.json');
      const { code, out } = await runCli([
        'verify',
        book,
        '--cases',
        'numpy_1',
        ...serverArgs(own, dir),
        '--json',
        jsonFile
      ]);
      const reason =
        "Module 'junobench_no_such_module' is not installed (ModuleNotFoundError in cell 2 [1]).";
      expect(
        out.some(l => /^numpy_1\s+missing\s+pass\s+missing-dependency/.test(l))
      ).toBe(true);
      expect(out.some(l => l.includes(`fixed: ${reason}`))).toBe(true);
      expect(out[out.length - 1]).toBe('0 passed, 0 failed');
      expect(code).toBe(0);
      const json = JSON.parse(readFileSync(jsonFile, 'utf8'));
      expect(json.reports[0].verdict).toBe('missing');
      expect(json.reports[0].reproduced.verdict).toBe('pass');
      expect(json.reports[0].fixed).toEqual({
        verdict: 'missing-dependency',
        reason,
        // The reason as a code, its cell by position, prompt and English name.
        why: {
          code: 'module-not-installed',
          module: 'junobench_no_such_module',
          ename: 'ModuleNotFoundError',
          cell: { cellIndex: 1, executionCount: 1, name: 'cell 2 [1]' }
        },
        observed:
          "ModuleNotFoundError: No module named 'junobench_no_such_module'"
      });
    } finally {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
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
