/**
 * The answer key is out of reach: `junobench check` runs a notebook in a scratch
 * copy of the case folder without the `_fixed` notebook or the diagnoses, its
 * inputs read-only, and a notebook that reaches for the reference (by relative
 * path, by absolute path, with `%run`, through a shell) or rewrites an input
 * fails with that reason. An honest notebook that reads its data and writes
 * new files passes, and the casebook is left as it was.
 */
import { readdirSync, statSync } from 'fs';
import * as path from 'path';

import { checkNotebook } from '../../src/cli/check';
import type { ICheckReport } from '../../src/cli/check';
import { MemoryReferenceCache } from '../../src/repair/repairCheck';
import { loadLocalCasebook } from '../../src/cli/verify';
import type { ICasebook } from '../../src/casebook/types';
import { sourceText } from '../../src/replay/plan';
import type { INbCell, INotebookJSON } from '../../src/replay/types';
import { renderFinding } from '../../src/repair/findings';
import { demoNotebook } from '../replay/notebooks';
import { sharedServer } from '../sharedServer';

jest.setTimeout(240000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');
const CASE = path.join(DEMO, 'benchmark', 'numpy_1');
/** numpy_1's crashing cell (index in the fixed notebook). */
const TARGET = 4;

function code(source: string): INbCell {
  return {
    cell_type: 'code',
    source,
    metadata: {},
    outputs: [],
    execution_count: null
  } as INbCell;
}

/** The reference fix with the crashing cell's code replaced. */
function withTarget(source: string): INotebookJSON {
  const nb = demoNotebook('numpy_1', 'fixed');
  nb.cells[TARGET] = { ...nb.cells[TARGET], source };
  return nb;
}

/** The reference fix with a cell added before the cell at `index`. */
function withCell(index: number, source: string): INotebookJSON {
  const nb = demoNotebook('numpy_1', 'fixed');
  nb.cells.splice(index, 0, code(source));
  return nb;
}

/** Every file of a folder with its size and modification time. */
function snapshot(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        walk(p);
      } else {
        out.push(`${path.relative(folder, p)} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(folder);
  return out.sort();
}

/** The scratch folders of check kernels still on disk. */
/** The scratch copies in the temporary folder of the shared server's kernels. */
function scratchFolders(): string[] {
  return readdirSync(sharedServer().kernelTmp).filter(n =>
    n.startsWith('junobench-scratch-')
  );
}

describe('the answer key is out of reach of the check', () => {
  let book: ICasebook;
  const cache = new MemoryReferenceCache();
  const check = (notebook: INotebookJSON, label: string) =>
    checkNotebook({
      cache,
      casebook: book,
      casebookDir: DEMO,
      caseName: 'numpy_1',
      notebook,
      notebookLabel: label,
      settings: sharedServer().settings,
      serverRoot: ROOT,
      timeoutMs: 120000
    });
  const reasons = (r: ICheckReport) =>
    r.findings.map(f => renderFinding(f)).join('\n');

  beforeAll(async () => {
    book = await loadLocalCasebook(DEMO);
  });

  const fixedTarget = sourceText(
    demoNotebook('numpy_1', 'fixed').cells[TARGET]
  );

  it.each([
    [
      'reads the reference by relative path',
      () =>
        withTarget(
          "import json\nref = json.load(open('numpy_1_fixed.ipynb'))\nexec(''.join(ref['cells'][4]['source']))"
        ),
      'reads-answer-key',
      'numpy_1_fixed.ipynb'
    ],
    [
      'reads the reference by absolute path',
      () =>
        withTarget(
          `import json\nref = json.load(open(${JSON.stringify(
            path.join(CASE, 'numpy_1_fixed.ipynb')
          )}))\nexec(''.join(ref['cells'][4]['source']))`
        ),
      'reads-answer-key',
      'benchmark/numpy_1/numpy_1_fixed.ipynb'
    ],
    [
      '%runs the reference',
      () => withTarget('%run numpy_1_fixed.ipynb'),
      'reads-answer-key',
      'numpy_1_fixed.ipynb'
    ],
    [
      'exports the reference to a script through the shell',
      () =>
        withTarget(
          '!jupyter nbconvert --to script numpy_1_fixed.ipynb\n%run numpy_1_fixed.py'
        ),
      'reads-answer-key',
      'numpy_1_fixed.ipynb'
    ],
    [
      'reads the diagnoses',
      () =>
        withCell(
          TARGET,
          "import pandas as pd\nlabels = pd.read_excel('../../diagnoses.xlsx')"
        ),
      'reads-answer-key',
      '../../diagnoses.xlsx'
    ],
    [
      'rewrites its input data in an earlier cell',
      () => withCell(3, "df.to_csv('data/flowers.csv', index=False)"),
      'rewrites-input',
      'data/flowers.csv'
    ],
    [
      'removes an input file',
      () => withCell(TARGET + 1, "import os\nos.remove('data/flowers.csv')"),
      'rewrites-input',
      'data/flowers.csv'
    ]
  ])(
    'fails a notebook that %s, and says so',
    async (_what, make, codeWanted, file) => {
      const before = snapshot(DEMO);
      const report = await check(make(), 'cheat');
      expect(report.status).toBe('off-limits');
      expect(report.passed).toBe(false);
      expect(report.findings[0]).toEqual({ code: codeWanted, file });
      expect(reasons(report)).toContain(
        codeWanted === 'reads-answer-key' ? 'answer key' : 'input file'
      );
      expect(snapshot(DEMO)).toEqual(before);
      expect(scratchFolders()).toEqual([]);
    }
  );

  it('passes an honest repair that reads its data and writes new files, even into data/', async () => {
    const nb = withCell(
      TARGET + 1,
      [
        "pd.DataFrame(Z).to_csv('zscores.csv', index=False)",
        "pd.DataFrame(Z).to_csv('data/zscores.csv', index=False)",
        "check = pd.read_csv('data/flowers.csv')",
        'assert len(check) == len(df)'
      ].join('\n')
    );
    expect(sourceText(nb.cells[TARGET])).toBe(fixedTarget);
    const before = snapshot(DEMO);
    const report = await check(nb, 'honest');
    expect(reasons(report)).not.toContain('answer key');
    expect(report.status).toBe('solved');
    expect(snapshot(DEMO)).toEqual(before);
    expect(scratchFolders()).toEqual([]);
  });

  it('runs every kernel in a copy of its own, outside the casebook and without the answer key', async () => {
    // What the learner's run sees: where it runs, what is there, whether inputs are writable.
    const nb = withCell(
      1,
      [
        'import os, json',
        "seen = {'cwd': os.getcwd(), 'files': sorted(os.listdir('.')), 'data_mode': oct(os.stat('data/flowers.csv').st_mode & 0o777)}",
        "open('seen.json', 'w').write(json.dumps(seen))"
      ].join('\n')
    );
    // What it saw comes back as the error of a last cell (no file of the run survives).
    nb.cells.push(code('raise RuntimeError(open("seen.json").read())'));
    const report = await check(nb, 'seen');
    const error = report.run?.error ?? '';
    const seen = JSON.parse(error.slice(error.indexOf('{')));
    expect(seen.cwd.startsWith(DEMO)).toBe(false);
    // In the kernels' own temporary folder (where the other tests look for leftovers).
    expect(seen.cwd.startsWith(sharedServer().kernelTmp)).toBe(true);
    expect(seen.cwd.endsWith(path.join('benchmark', 'numpy_1'))).toBe(true);
    expect(seen.files).toEqual(['README.md', 'data']);
    expect(seen.data_mode).toBe('0o444');
  });
});
