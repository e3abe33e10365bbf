/**
 * `junobench fetch --cases` and the facet selectors, against a local
 * repository laid out like the JunoBench dataset (scripts/make_fetch_fixture.py:
 * the 10 demo cases under JunoBench/, data in git-lfs when it is installed).
 * The sparse fetch itself runs in Python (jupyterlab_junobench.sparse), as the
 * server's "Fetch this case" does; this covers the command line around it.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { nameProblem } from '../../src/casebook/paths';
import {
  readFetchJobProblem,
  renderFetchJobProblem
} from '../../src/model/fetchProblems';
import { loadLocalCasebook } from '../../src/cli/verify';
import { selectCases } from '../../src/cli/fetch';
import type { ICaseSelectors } from '../../src/cli/fetch';

import { runCli } from './capture';

jest.setTimeout(180000);

const REPO = path.resolve(__dirname, '../..');
const DEMO = path.join(REPO, 'demo/casebook');
const PYTHON = process.env.VIRTUAL_ENV
  ? path.join(process.env.VIRTUAL_ENV, 'bin', 'python')
  : 'python3';

/** Case folders checked out in a copy. */
function folders(copy: string): string[] {
  const bench = path.join(copy, 'JunoBench', 'benchmark');
  return existsSync(bench) ? readdirSync(bench).sort() : [];
}

/** No selector at all. */
function none(): ICaseSelectors {
  return {
    cases: [],
    library: [],
    rootCause: [],
    crashType: [],
    pipelineStage: [],
    notebookSpecific: false
  };
}

describe('one case-name rule', () => {
  it('the Python fetcher and authoring writer (jupyterlab_junobench.names) agree with nameProblem', () => {
    // writer.spec.ts compares the common names; these are where the fetcher's old rule differed.
    const names = [
      '.git',
      '.hidden',
      '_x',
      '-x',
      'x'.repeat(128),
      'x'.repeat(129),
      'x'.repeat(200)
    ];
    const python = execFileSync(
      PYTHON,
      [
        '-c',
        'import json, sys\nfrom jupyterlab_junobench.names import name_problem\nprint(json.dumps([name_problem(n) for n in json.load(sys.stdin)]))'
      ],
      { input: JSON.stringify(names), encoding: 'utf8' }
    );
    expect(JSON.parse(python)).toEqual(names.map(n => nameProblem(n)));
    expect(nameProblem('.git')).toEqual({ code: 'hidden' });
    expect(nameProblem('x'.repeat(200))).toBeNull();
  });

  it("the fetcher refuses a bad name with a code the panel words as the fetcher's English", () => {
    const names = ['.git', '../x', 'a b', 'é', 'x'.repeat(256)];
    const python = execFileSync(
      PYTHON,
      [
        '-c',
        [
          'import json, sys, tempfile',
          'from jupyterlab_junobench.sparse import FetchError, fetch_cases',
          'out = []',
          'for name in json.load(sys.stdin):',
          '    try:',
          '        fetch_cases(tempfile.mkdtemp(), [name], "nowhere")',
          '    except FetchError as err:',
          '        out.append(err.to_json())',
          'print(json.dumps(out))'
        ].join('\n')
      ],
      { input: JSON.stringify(names), encoding: 'utf8' }
    );
    const errors = JSON.parse(python) as Array<Record<string, unknown>>;
    expect(errors).toHaveLength(names.length);
    errors.forEach((error, i) => {
      const problem = readFetchJobProblem(error);
      expect(problem).toEqual({
        code: 'bad-case-name',
        name: names[i],
        problem: nameProblem(names[i])
      });
      expect(renderFetchJobProblem(problem!)).toBe(error.message);
    });
  });
});

describe('selectCases on the demo descriptor', () => {
  let cases: Awaited<ReturnType<typeof loadLocalCasebook>>['cases'];

  beforeAll(async () => {
    cases = (await loadLocalCasebook(DEMO)).cases;
  });

  it.each<[string, Partial<ICaseSelectors>, (c: (typeof cases)[0]) => boolean]>(
    [
      [
        '--library sklearn',
        { library: ['sklearn'] },
        c => c.library === 'sklearn'
      ],
      [
        '--library SKLEARN (any case)',
        { library: ['SKLEARN'] },
        c => c.library === 'sklearn'
      ],
      [
        '--notebook-specific',
        { notebookSpecific: true },
        c => c.notebookSpecific
      ],
      [
        '--library numpy --library pandas',
        { library: ['numpy', 'pandas'] },
        c => c.library === 'numpy' || c.library === 'pandas'
      ]
    ]
  )('%s picks exactly the matching cases', (_name, sel, expected) => {
    const chosen = selectCases(cases, { ...none(), ...sel });
    expect(chosen).toEqual(
      cases
        .filter(expected)
        .map(c => c.name)
        .sort()
    );
    expect(chosen.length).toBeGreaterThan(0);
  });

  it('combines selectors of different facets with AND, and adds --cases', () => {
    const rootCause = cases.find(c => c.library === 'sklearn')!.rootCause;
    const chosen = selectCases(cases, {
      ...none(),
      library: ['sklearn'],
      rootCause: [rootCause.toUpperCase()],
      cases: ['numpy_1']
    });
    const expected = cases
      .filter(c => c.library === 'sklearn' && c.rootCause === rootCause)
      .map(c => c.name);
    expect(chosen).toEqual([...expected, 'numpy_1'].sort());
  });

  it('names a label no case has, with the labels there are', () => {
    expect(() =>
      selectCases(cases, { ...none(), rootCause: ['cosmic rays'] })
    ).toThrow(
      /no case has --root-cause "cosmic rays"; the descriptor's values are: .+/
    );
  });
});

describe('junobench fetch --cases / selectors (sparse)', () => {
  let work: string;
  let source: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'junobench-sparse-'));
    source = path.join(work, 'JunoBench-src');
    execFileSync(
      PYTHON,
      [path.join(REPO, 'scripts/make_fetch_fixture.py'), source],
      {
        stdio: 'pipe'
      }
    );
  });

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('fetches the cases a selector chooses, then adds one more by name', async () => {
    const dest = path.join(work, 'copy');
    const first = await runCli([
      'fetch',
      dest,
      '--source',
      source,
      '--library',
      'sklearn',
      '--json'
    ]);
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    const result = JSON.parse(first.out.join('\n'));
    expect(result.selected).toEqual(['sklearn_1', 'sklearn_2']);
    expect(result.sparse.cases).toEqual(['sklearn_1', 'sklearn_2']);
    expect(folders(dest)).toEqual(['sklearn_1', 'sklearn_2']);
    expect(result.cases).toBe(10);
    expect(result.withReproduced).toBe(2);

    const second = await runCli(['fetch', dest, '--cases', 'NBspecific_3']);
    expect(second.code).toBe(0);
    expect(folders(dest)).toEqual(['NBspecific_3', 'sklearn_1', 'sklearn_2']);
    expect(second.out).toContain(
      'case folders here: 3 of the 10 in the source; added: NBspecific_3'
    );
    // The fetcher's progress codes, worded by renderFetchProgress.
    expect(second.out).toContain(
      'checking out the descriptor files and 3 case folder(s): NBspecific_3, sklearn_1, sklearn_2'
    );
    expect(second.out.find(l => l.startsWith('disk used: '))).toBeTruthy();

    const listed = await runCli([
      'list',
      path.join(dest, 'JunoBench'),
      '--json'
    ]);
    const cases = JSON.parse(listed.out.join('\n')) as {
      name: string;
      runnable: boolean;
      missing: string[];
      datasets: { title: string; license: string; url: string }[];
    }[];
    const byName = new Map(cases.map(c => [c.name, c]));
    expect(byName.get('sklearn_1')).toMatchObject({
      runnable: true,
      missing: []
    });
    expect(byName.get('pandas_1')).toMatchObject({
      runnable: false,
      missing: ['folder']
    });
    expect(
      cases
        .filter(c => c.runnable)
        .map(c => c.name)
        .sort()
    ).toEqual(['NBspecific_3', 'sklearn_1', 'sklearn_2']);
    for (const c of cases) {
      expect(c.datasets.length).toBeGreaterThan(0);
      expect(c.datasets[0].license).toBeTruthy();
      expect(typeof c.datasets[0].url).toBe('string');
    }
  });

  it('refuses an unknown case name, naming it, and fetches nothing of it', async () => {
    const dest = path.join(work, 'copy-bad');
    const run = await runCli([
      'fetch',
      dest,
      '--source',
      source,
      '--cases',
      'sklearn_9'
    ]);
    expect(run.code).toBe(2);
    expect(run.err.join('\n')).toMatch(/has no case folder sklearn_9/);
    expect(folders(dest)).toEqual([]);
  });

  it('says which labels exist when a selector matches none', async () => {
    const dest = path.join(work, 'copy-none');
    const run = await runCli([
      'fetch',
      dest,
      '--source',
      source,
      '--stage',
      'astrology'
    ]);
    expect(run.code).toBe(2);
    expect(run.err.join('\n')).toMatch(/no case has --stage "astrology"/);
    expect(folders(dest)).toEqual([]);
  });
});
