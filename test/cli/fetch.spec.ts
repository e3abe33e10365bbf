/**
 * `junobench fetch` against real local git repositories built from the demo
 * casebook (the real dataset's address needs a network this test cannot count on).
 * The fetcher's JSON lines carry codes with parameters, which the command
 * line words through the panel's renderers: never the fetcher's English, which
 * says the same.
 */
import { execFileSync, spawnSync } from 'child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';

import { fetchDataset } from '../../src/cli/fetch';
import type { IFetcherLine } from '../../src/cli/fetchText';
import {
  readFetchJobProblem,
  renderFetchJobProblem
} from '../../src/model/fetchProblems';
import {
  readFetchProgress,
  renderFetchProgress
} from '../../src/model/fetchProgress';

import { runCli } from './capture';

jest.setTimeout(120000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const PYTHON = process.env.VIRTUAL_ENV
  ? path.join(process.env.VIRTUAL_ENV, 'bin', 'python')
  : 'python3';

/** The JSON lines of `python -m jupyterlab_junobench fetch --json-lines <args>`. */
function fetcherLines(args: string[]): IFetcherLine[] {
  const run = spawnSync(
    PYTHON,
    ['-m', 'jupyterlab_junobench', 'fetch', '--json-lines', ...args],
    { encoding: 'utf8' }
  );
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as IFetcherLine);
}

/** A stand-in for Python that prints these JSON lines and exits with 1. */
function fakePython(file: string, lines: object[]): string {
  const text = lines.map(l => JSON.stringify(l)).join('\n');
  writeFileSync(file, `#!/bin/sh\ncat <<'END'\n${text}\nEND\nexit 1\n`, {
    mode: 0o755
  });
  return file;
}

/** A git repository in `dir` holding what `fill` put there, committed. */
function gitRepo(dir: string, fill: (dir: string) => void): string {
  mkdirSync(dir, { recursive: true });
  fill(dir);
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=JunoBench test',
        '-c',
        'user.email=test@example.invalid',
        ...args
      ],
      { cwd: dir, stdio: 'pipe' }
    );
  git('init', '--quiet');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'casebook');
  return pathToFileURL(dir).href;
}

describe('junobench fetch', () => {
  let work: string;
  let demoUrl: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'junobench-fetch-'));
    demoUrl = gitRepo(path.join(work, 'demo-repo'), dir =>
      cpSync(DEMO, dir, { recursive: true })
    );
  });

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('clones a casebook repository and summarises its cases and data', async () => {
    const dest = path.join(work, 'fetched');
    const { code, out } = await runCli(['fetch', dest, '--source', demoUrl]);
    expect(code).toBe(0);
    expect(existsSync(path.join(dest, 'benchmark_desc.xlsx'))).toBe(true);
    expect(existsSync(path.join(dest, '.git'))).toBe(true);
    const cases = readdirSync(path.join(DEMO, 'benchmark')).filter(n =>
      existsSync(path.join(DEMO, 'benchmark', n, `${n}_reproduced.ipynb`))
    ).length;
    expect(out).toContain(`casebook: ${dest}`);
    expect(
      out.some(l =>
        l.startsWith(`${cases} case(s): ${cases} with a reproduced notebook`)
      )
    ).toBe(true);
    expect(out.find(l => l.startsWith('with data: '))).toMatch(/numpy_1/);
    expect(out[out.length - 1]).toBe(
      `Verify it with: junobench verify ${dest}`
    );
  });

  it('finds the casebook under a JunoBench/ folder and reports JSON', async () => {
    const url = gitRepo(path.join(work, 'nested-repo'), dir => {
      cpSync(DEMO, path.join(dir, 'JunoBench'), { recursive: true });
      writeFileSync(path.join(dir, 'README.md'), '# dataset card\n');
    });
    const dest = path.join(work, 'nested');
    const { code, out } = await runCli([
      'fetch',
      dest,
      '--source',
      url,
      '--json'
    ]);
    expect(code).toBe(0);
    const summary = JSON.parse(out.join('\n'));
    expect(summary.casebook).toBe(path.join(dest, 'JunoBench'));
    expect(summary.cases).toBeGreaterThan(0);
    expect(summary.withData).toContain('numpy_1');
    expect(summary.lfsPointers).toEqual([]);
  });

  it('counts data left as Git LFS pointers as missing and says how to get them', async () => {
    const url = gitRepo(path.join(work, 'lfs-repo'), dir => {
      cpSync(DEMO, dir, { recursive: true });
      const data = path.join(dir, 'benchmark', 'numpy_1', 'data');
      rmSync(data, { recursive: true });
      mkdirSync(data);
      writeFileSync(
        path.join(data, 'flowers.csv'),
        'version https://git-lfs.github.com/spec/v1\noid sha256:0000\nsize 4200\n'
      );
    });
    const summary = await fetchDataset({
      dest: path.join(work, 'lfs'),
      source: url
    });
    expect(summary.lfsPointers).toEqual(['benchmark/numpy_1/data/flowers.csv']);
    expect(summary.withData).not.toContain('numpy_1');
    expect(summary.withoutData).toContain('numpy_1');
  });

  it.each([
    [
      'a local path that does not exist',
      'no-such-folder',
      /the source .*no-such-folder does not exist/
    ],
    [
      'a URL git cannot clone',
      'file:///nonexistent/junobench.git',
      /cannot fetch file:\/\/\/nonexistent\/junobench\.git: git clone failed .*unreachable.*no network/
    ]
  ])('rejects %s', async (_, source, message) => {
    const dest = path.join(work, `bad-${Math.random().toString(36).slice(2)}`);
    await expect(
      fetchDataset({
        dest,
        source: source.startsWith('file:') ? source : path.join(work, source)
      })
    ).rejects.toThrow(message);
    expect(existsSync(dest)).toBe(false);
  });

  it('refuses a destination that is not empty, through the command line', async () => {
    const dest = path.join(work, 'occupied');
    mkdirSync(dest);
    writeFileSync(path.join(dest, 'notes.txt'), 'mine');
    const { code, err } = await runCli(['fetch', dest, '--source', demoUrl]);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/occupied exists and is not empty/);
    expect(readdirSync(dest)).toEqual(['notes.txt']);
  });

  it('rejects a repository without a descriptor and removes what it fetched', async () => {
    const url = gitRepo(path.join(work, 'plain-repo'), dir => {
      writeFileSync(path.join(dir, 'README.md'), '# not a benchmark\n');
      mkdirSync(path.join(dir, 'benchmark'));
      writeFileSync(path.join(dir, 'benchmark', 'x.txt'), 'x');
    });
    const dest = path.join(work, 'empty-dest');
    mkdirSync(dest);
    await expect(fetchDataset({ dest, source: url })).rejects.toThrow(
      /is not a JunoBench layout: no benchmark_desc\.xlsx at its root or under JunoBench\/.*removed/
    );
    // It existed empty before: it is left empty, not deleted.
    expect(readdirSync(dest)).toEqual([]);
  });

  it('rejects a descriptor that is only a Git LFS pointer, keeping the clone', async () => {
    const url = gitRepo(path.join(work, 'pointer-repo'), dir => {
      cpSync(DEMO, dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'benchmark_desc.xlsx'),
        'version https://git-lfs.github.com/spec/v1\noid sha256:1111\nsize 99999\n'
      );
    });
    const dest = path.join(work, 'pointer');
    await expect(fetchDataset({ dest, source: url })).rejects.toThrow(
      /benchmark_desc\.xlsx is a Git LFS pointer.*git lfs pull/
    );
    expect(existsSync(path.join(dest, 'benchmark'))).toBe(true);
  });

  it("words the fetcher's progress, warnings and error from their codes, never from its English", async () => {
    const said = { message: 'The English of Python.' };
    const python = fakePython(path.join(work, 'fake-python'), [
      { event: 'warning', code: 'no-git-lfs', ...said },
      {
        ...{ event: 'progress', phase: 'clone', percent: null },
        ...{ code: 'clone', url: 'file:///s', dest: '/d', ...said }
      },
      {
        ...{ event: 'progress', phase: 'clone', percent: 55 },
        ...{ code: 'receiving-objects', ...said }
      },
      // The same step in the same quarter: not said again.
      {
        ...{ event: 'progress', phase: 'clone', percent: 70 },
        ...{ code: 'receiving-objects', ...said }
      },
      {
        ...{ event: 'progress', phase: 'lfs', percent: 75 },
        ...{ code: 'lfs-files', done: 3, total: 4, ...said }
      },
      { event: 'progress', phase: 'later', code: 'later-code', ...said },
      { event: 'progress', phase: 'done', percent: 100, code: 'done', ...said },
      { event: 'error', code: 'busy', dest: '/d', lock: '/d/l', ...said }
    ]);
    const log: string[] = [];
    await expect(
      fetchDataset({ dest: '/d', source: 's', python, log: l => log.push(l) })
    ).rejects.toThrow(
      new Error(
        'another fetch is running in /d (lock /d/l); wait for it to finish.'
      )
    );
    expect(log).toEqual([
      renderFetchProgress({ code: 'no-git-lfs' }),
      'cloning file:///s into /d',
      'receiving objects 50%',
      'downloading large files (git-lfs): 3/4 75%',
      // Only a code this version does not know shows the fetcher's English.
      'The English of Python.'
    ]);
    const later = fakePython(path.join(work, 'later-python'), [
      { event: 'error', code: 'later-code', ...said }
    ]);
    await expect(
      fetchDataset({ dest: '/d', source: 's', python: later })
    ).rejects.toThrow(new Error('The English of Python.'));
  });

  it("sends every progress line and error as a code whose English is the fetcher's own", () => {
    const plain = path.join(work, 'plain-src');
    gitRepo(plain, dir => writeFileSync(path.join(dir, 'README.md'), '#\n'));
    const flat = path.join(work, 'flat-src');
    gitRepo(flat, dir =>
      cpSync(
        path.join(DEMO, 'benchmark_desc.xlsx'),
        path.join(dir, 'benchmark_desc.xlsx')
      )
    );
    const pointer = path.join(work, 'pointer-src');
    gitRepo(pointer, dir => {
      cpSync(DEMO, dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'benchmark_desc.xlsx'),
        'version https://git-lfs.github.com/spec/v1\noid sha256:1111\nsize 9\n'
      );
    });
    const full = path.join(work, 'full-dest');
    mkdirSync(full);
    writeFileSync(path.join(full, 'notes.txt'), 'mine');
    const dest = (name: string) => path.join(work, `lines-${name}`);
    const runs: Array<[string, string[]]> = [
      ['done', [dest('ok'), '--source', demoUrl]],
      ['not-junobench', [dest('plain'), '--source', plain]],
      ['no-cases-folder', [dest('flat'), '--source', flat]],
      ['descriptor-pointer', [dest('pointer'), '--source', pointer]],
      ['dest-not-empty', [full, '--source', demoUrl]],
      ['source-missing', [dest('none'), '--source', dest('nowhere')]],
      ['no-source', [dest('no-source')]],
      ['unknown-case', [dest('sparse'), '--source', demoUrl, '--cases', 'x_9']]
    ];
    for (const [code, args] of runs) {
      const lines = fetcherLines(args);
      const end = lines[lines.length - 1];
      expect([end.event, end.code ?? 'done']).toEqual([
        code === 'done' ? 'summary' : 'error',
        code
      ]);
      for (const line of lines.filter(l => l.event !== 'summary')) {
        const said =
          line.event === 'error'
            ? readFetchJobProblem(line)
            : readFetchProgress(line);
        expect(said).not.toBeNull();
        expect(
          line.event === 'error'
            ? renderFetchJobProblem(readFetchJobProblem(line)!)
            : renderFetchProgress(readFetchProgress(line)!)
        ).toBe(line.message);
      }
    }
  });

  it('says so when git is missing', async () => {
    const saved = process.env.PATH;
    process.env.PATH = path.join(work, 'no-bin');
    try {
      await expect(
        fetchDataset({ dest: path.join(work, 'nogit'), source: demoUrl })
      ).rejects.toThrow(/git is not installed/);
    } finally {
      process.env.PATH = saved;
    }
  });
});
