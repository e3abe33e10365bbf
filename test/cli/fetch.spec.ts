/**
 * `junobench fetch` against real local git repositories built from the demo
 * casebook (the real dataset's address needs a network this test cannot count on).
 */
import { execFileSync } from 'child_process';
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

import { runCli } from './capture';

jest.setTimeout(120000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');

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
