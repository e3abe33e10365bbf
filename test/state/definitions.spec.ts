/**
 * The static definitions finder: binding and reading forms on small snippets, the demo casebook's
 * notebook-specific cases, and the real JunoBench NB-specific cells in ../shared/junobench
 * (skipped when absent), whose code lost its indentation.
 */

import * as fs from 'fs';
import * as path from 'path';

import type { IDescriptorRow } from '../../src/casebook';
import { parseDescriptor } from '../../src/casebook';
import type { INotebookJSON } from '../../src/replay';
import { recordedPlan, sourceText } from '../../src/replay';
import type { IDefinitionCell } from '../../src/state/definitions';
import {
  definitionSites,
  explainNameError,
  missingNameFromError,
  namesDefined,
  namesRead
} from '../../src/state/definitions';

/** Read a file as an ArrayBuffer. */
function bytesOf(file: string): ArrayBuffer {
  const data = fs.readFileSync(file);
  return data.buffer.slice(
    data.byteOffset,
    data.byteOffset + data.byteLength
  ) as ArrayBuffer;
}

/** A notebook's cells as the finder takes them. */
function cellsOf(nb: INotebookJSON): IDefinitionCell[] {
  return nb.cells.map(cell => ({
    source: sourceText(cell),
    executionCount: cell.execution_count ?? null,
    cellType: cell.cell_type
  }));
}

describe('namesDefined', () => {
  it.each<[string, string, string[]]>([
    ['plain assignment', 'x = 1', ['x']],
    ['chained assignment', 'a = b = f(c)', ['a', 'b']],
    ['tuple unpacking', 'a, (b, c) = t', ['a', 'b', 'c']],
    ['starred list target', '[a, *rest] = t', ['a', 'rest']],
    ['augmented assignment', 'x += 1', ['x']],
    ['annotated assignment', 'n: int = 5', ['n']],
    ['bare annotation binds nothing', 'n: int', []],
    ['subscript and attribute targets', 'df["a"] = 1\nobj.attr = 2', []],
    ['walrus in a condition', 'if (m := re.match(p, s)):\n    pass', ['m']],
    ['walrus in a call', 'print(y := 3)', ['y']],
    [
      'for targets and the loop body',
      'for i, (j, k) in pairs:\n    total = i',
      ['i', 'j', 'k', 'total']
    ],
    [
      'with ... as',
      'with open(p) as fh, lock:\n    data = fh.read()',
      ['fh', 'data']
    ],
    [
      'except ... as',
      'try:\n    import foo\nexcept ImportError as err:\n    foo = None',
      ['foo', 'err']
    ],
    ['import of a dotted name binds its head', 'import a.b.c', ['a']],
    ['import as', 'import numpy as np, os.path', ['np', 'os']],
    ['from import', 'from m import a, b as c', ['a', 'c']],
    ['from import in parentheses', 'from m import (a,\n    b)', ['a', 'b']],
    ['relative from import', 'from . import sibling', ['sibling']],
    ['star import binds nothing we can name', 'from m import *', []],
    [
      'def binds its name, not its locals',
      'def f(x, y=z):\n    local = x\n    return local',
      ['f']
    ],
    [
      'class binds its name, not its attributes',
      'class C(Base):\n    attr = 1\n    def method(self):\n        pass',
      ['C']
    ],
    ['decorated def', '@decorator\ndef g():\n    pass', ['g']],
    ['async def', 'async def fetch():\n    page = await get()', ['fetch']],
    [
      'global names assigned in a function',
      'def setup():\n    global model, seen\n    model = make()\n    other = 1',
      ['setup', 'model']
    ],
    [
      'nested functions stay local',
      'def outer():\n    def inner():\n        hidden = 1\n    return inner',
      ['outer']
    ],
    [
      'list comprehension variable',
      'squares = [v * v for v in values]',
      ['squares']
    ],
    [
      'dict comprehension and generator variables',
      '{k: v for k, v in d.items()}\ntotal = sum(x for x in xs)',
      ['total']
    ],
    [
      'walrus in a comprehension binds the cell',
      '[y for x in xs if (y := f(x))]',
      ['y']
    ],
    ['lambda parameters', 'key = lambda row: row[0] + offset', ['key']],
    ['del binds nothing', 'del x', []],
    [
      'match patterns',
      'match cmd:\n    case Point(x=px, y=0) as pt:\n        pass\n    case [first, *others]:\n        pass\n    case _:\n        pass',
      ['px', 'pt', 'first', 'others']
    ],
    ['type alias', 'type Vector = list[float]', ['Vector']],
    [
      'line magics, shell escapes and help are blank lines',
      '%matplotlib inline\nimport numpy as np\n!pip install foo\nnp.zeros?\n%timeit f()',
      ['np']
    ],
    [
      'shell output assigned',
      'files = !ls\nt = %timeit -o f()',
      ['files', 't']
    ],
    ['a foreign cell magic', '%%bash\nx=1', []],
    ['a Python cell magic', '%%time\nresult = train()', ['result']],
    [
      'a modulo continuation is not a magic',
      'msg = ("%d rows"\n       % count)\ndone = 1',
      ['msg', 'done']
    ],
    [
      'flattened def body (one space)',
      'def f(text):\n clean = re.compile(p)\n return clean\n\ndf["r"] = df["r"].apply(f)',
      ['f']
    ],
    [
      'flattened nested blocks (one space)',
      'def remove_stopwords(text):\n new_text = []\n\n for word in text.split():\n if word in stp:\n new_text.append("")\n else:\n new_text.append(word)\n\n x = new_text[:]\n return " ".join(x)',
      ['remove_stopwords']
    ],
    [
      // A body flattened to column 0 cannot be told from the cell's top level.
      'flattened def body (column 0): its names count as the cell’s',
      'def f(x):\ny = x + 1\nreturn y',
      ['f', 'y']
    ],
    [
      'broken syntax: the error-tolerant parse keeps every statement',
      'a = 1\nb = = 2\nc = 3',
      ['a', 'b', 'c']
    ],
    [
      'an unclosed bracket keeps what came before',
      'a = 1\nb = f(\nc = 3',
      ['a', 'b']
    ],
    ['windows line ends', 'a = 1\r\nb = 2\r\n', ['a', 'b']]
  ])('%s', (_, source, expected) => {
    expect(namesDefined(source)).toEqual(expected);
  });
});

describe('namesRead', () => {
  it.each<[string, string, string[]]>([
    ['a method call', 'df.head()', ['df']],
    [
      'keyword-argument names are not read',
      'model.fit(X, y=labels)',
      ['model', 'X', 'labels']
    ],
    ['attribute names are not read', 'obj.attr.sub', ['obj']],
    ['augmented assignment reads its target', 'x += 1', ['x']],
    ['subscript target reads the object', 'df["a"] = value', ['df', 'value']],
    ['unpacking reads the value only', 'a, b = pair', ['pair']],
    [
      'free names in a function body, defaults and builtins',
      'def f(x, k=default):\n    return x + glob + len(x)',
      ['default', 'glob', 'len']
    ],
    [
      'locals of a function are not read',
      'def f():\n    local = 1\n    return local',
      []
    ],
    [
      'a global declared in a function',
      'def f():\n    global counter\n    counter += 1',
      ['counter']
    ],
    [
      'nonlocal names stay inside',
      'def outer():\n    n = 0\n    def inner():\n        nonlocal n\n        n += 1\n    return inner',
      []
    ],
    [
      'lambda parameters are local',
      'key = lambda row: row[0] + offset',
      ['offset']
    ],
    [
      'comprehension variables are local',
      '[v * w for v in values if v > limit]',
      ['w', 'values', 'limit']
    ],
    ['generator argument', 'total = sum(x for x in xs)', ['sum', 'xs']],
    [
      'class attributes are invisible to methods',
      'class C:\n    size = 3\n    def m(self):\n        return size',
      ['size']
    ],
    [
      'f-string replacements',
      'f"{name!r}: {value:.{width}f}"',
      ['name', 'value', 'width']
    ],
    ['decorator head only', '@app.route("/")\ndef index():\n    pass', ['app']],
    [
      'a name bound earlier in the cell is still listed',
      'import os\nos.listdir(path)',
      ['os', 'path']
    ],
    ['magics are skipped', '%matplotlib inline\nplt.plot(xs)', ['plt', 'xs']],
    ['comments and strings hold no names', 'x = "not a name"  # uses y', []],
    [
      'with target read in the body',
      'with open(p) as fh:\n    fh.read()',
      ['open', 'p', 'fh']
    ],
    [
      'exception classes and the bound exception',
      'try:\n    run()\nexcept (ValueError, KeyError) as e:\n    log(e)',
      ['run', 'ValueError', 'KeyError', 'log', 'e']
    ],
    ['walrus value then read', 'print(y := 3, y)', ['print', 'y']],
    [
      'match subject, class and guard',
      'match cmd:\n    case Point(x=px) if px > limit:\n        pass',
      ['cmd', 'Point', 'px', 'limit']
    ],
    [
      'flattened body with an orphan else',
      'def f(t):\n if t in stp:\n out = 1\n else:\n out = 2\n return out',
      ['stp']
    ]
  ])('%s', (_, source, expected) => {
    expect(namesRead(source)).toEqual(expected);
  });

  it('survives a very long expression chain', () => {
    const source = `total = ${Array.from({ length: 20000 }, (_, i) => `v${i % 7}`).join(' + ')}`;
    expect(namesRead(source)).toEqual([
      'v0',
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
      'v6'
    ]);
    expect(namesDefined(source)).toEqual(['total']);
  });
});

describe('missingNameFromError', () => {
  it.each<[string, string | null]>([
    ["name 'tf_idf' is not defined", 'tf_idf'],
    ["name 'np' is not defined. Did you mean: 'nz'?", 'np'],
    ["global name 'x' is not defined", 'x'],
    [
      "cannot access free variable 'acc' where it is not associated with a value in enclosing scope",
      'acc'
    ],
    [
      "free variable 'acc' referenced before assignment in enclosing scope",
      'acc'
    ],
    ["local variable 'total' referenced before assignment", 'total'],
    [
      "cannot access local variable 'total' where it is not associated with a value",
      'total'
    ],
    ["'DataFrame' object has no attribute 'foo'", null],
    ["name '1abc' is not defined", null],
    ['', null]
  ])('%j', (evalue, expected) => {
    expect(missingNameFromError(evalue)).toBe(expected);
  });
});

describe('definitionSites and explainNameError', () => {
  const code = (source: string, executionCount: number | null = null) => ({
    source,
    executionCount
  });
  const cells: IDefinitionCell[] = [
    {
      source: 'x = 1 (a markdown cell)',
      executionCount: null,
      cellType: 'markdown'
    },
    code('import numpy as np', 1),
    code('x = np.arange(3)'),
    code('print(x)', 2),
    code('x = 0', 3),
    code('def f():\n    x = 5\n    return x', 4)
  ];

  it('finds the code cells that bind the name at top level', () => {
    expect(definitionSites(cells, 'x')).toEqual([2, 4]);
    expect(definitionSites(cells, 'np')).toEqual([1]);
    expect(definitionSites(cells, 'missing')).toEqual([]);
  });

  it.each<
    [
      string,
      number[],
      number,
      Omit<ReturnType<typeof explainNameError>, 'name' | 'definedIn'>
    ]
  >([
    [
      'one never ran, one ran later (higher prompt)',
      [1, 3],
      3,
      { ranBeforeCrash: [], neverRan: [2], ranAfterCrashOnly: [4] }
    ],
    [
      'steps after the crash in the order',
      [1, 3, 2],
      3,
      { ranBeforeCrash: [], neverRan: [], ranAfterCrashOnly: [2, 4] }
    ],
    [
      'a defining cell that ran before the crash',
      [1, 2, 3],
      3,
      { ranBeforeCrash: [2], neverRan: [], ranAfterCrashOnly: [4] }
    ],
    [
      'the crash is the last run of a re-executed target',
      [1, 4, 3, 4],
      4,
      { ranBeforeCrash: [4], neverRan: [2], ranAfterCrashOnly: [] }
    ],
    [
      'a target missing from the order crashes after all of it',
      [1, 2],
      3,
      { ranBeforeCrash: [2], neverRan: [], ranAfterCrashOnly: [4] }
    ]
  ])('%s', (_, order, target, expected) => {
    expect(explainNameError(cells, target, 'x', order)).toEqual({
      name: 'x',
      definedIn: [2, 4],
      ...expected
    });
  });
});

const DEMO = path.resolve(__dirname, '../../demo/casebook');

/** The reproduced notebook of a demo case. */
function demoNotebook(name: string): INotebookJSON {
  const folder = path.join(DEMO, 'benchmark', name);
  return JSON.parse(
    fs.readFileSync(path.join(folder, `${name}_reproduced.ipynb`), 'utf-8')
  ) as INotebookJSON;
}

describe('the demo casebook’s notebook-specific cases', () => {
  let rows: Map<string, IDescriptorRow>;

  beforeAll(async () => {
    const parsed = await parseDescriptor(
      bytesOf(path.join(DEMO, 'benchmark_desc.xlsx'))
    );
    rows = new Map(parsed.rows.map(row => [row.name, row]));
  });

  // Read from the notebooks: NBspecific_1 binds `scaler` only in cell 8 (below the crash, never
  // run); NBspecific_2 re-runs the drop in cell 4, the crash is its second run; NBspecific_3
  // crashes in cell 7 on `model`, fitted in cell 6 after the slice of cell 4 ran twice.
  it.each<
    [string, string, number, string, ReturnType<typeof explainNameError>]
  >([
    [
      'NBspecific_1',
      'nameerror',
      6,
      'scaler',
      {
        name: 'scaler',
        definedIn: [8],
        ranBeforeCrash: [],
        neverRan: [8],
        ranAfterCrashOnly: []
      }
    ],
    [
      'NBspecific_2',
      'keyerror',
      4,
      'df',
      {
        name: 'df',
        definedIn: [2, 4],
        ranBeforeCrash: [2, 4],
        neverRan: [],
        ranAfterCrashOnly: []
      }
    ],
    [
      'NBspecific_3',
      'valueerror',
      7,
      'model',
      {
        name: 'model',
        definedIn: [6],
        ranBeforeCrash: [6],
        neverRan: [],
        ranAfterCrashOnly: []
      }
    ]
  ])('%s', (name, ename, targetIndex, involved, expected) => {
    const nb = demoNotebook(name);
    const cells = cellsOf(nb);
    const plan = recordedPlan(nb);
    const row = rows.get(name);
    expect(row?.ename.toLowerCase()).toBe(ename);
    expect(plan.target?.cellIndex).toBe(targetIndex);

    const missing = missingNameFromError(row?.evalue ?? '');
    expect(missing).toBe(ename === 'nameerror' ? involved : null);
    expect(namesRead(cells[targetIndex].source)).toContain(involved);

    const order = plan.steps.map(step => step.cellIndex);
    expect(explainNameError(cells, targetIndex, involved, order)).toEqual(
      expected
    );
  });
});

const JUNOBENCH = path.resolve(__dirname, '../../../shared/junobench');
const CELLS = path.resolve(
  __dirname,
  '../../../shared/junobench/cells/reproduced'
);
const DESCRIPTOR = path.join(JUNOBENCH, 'benchmark_desc.xlsx');
const haveReal = fs.existsSync(CELLS) && fs.existsSync(DESCRIPTOR);
if (!haveReal) {
  console.log(
    `Skipping the real NB-specific definitions tests: ${CELLS} or ${DESCRIPTOR} is not there (the shared JunoBench material is not checked out beside this repository).`
  );
}
const describeReal = haveReal ? describe : describe.skip;

/** One case of `cells/reproduced/<case>.json`. */
interface ICaseCells {
  executed: { execution_count: number; code_cell_id: number; code: string }[];
  target: { code_cell_id: number; code: string };
}

/** Read one case's recorded cells. */
function loadCase(name: string): ICaseCells {
  return JSON.parse(
    fs.readFileSync(path.join(CELLS, `${name}.json`), 'utf-8')
  ) as ICaseCells;
}

const NB_SPECIFIC = Array.from({ length: 20 }, (_, i) => `NBspecific_${i + 1}`);

/**
 * The NameError cases, checked by reading each case's cells: whether a cell that ran before the
 * crash defines the missing name, and a control name such a cell does define, with the code cells
 * that define it (null when no cell ran before the crash).
 */
const NAME_ERRORS: Array<[string, string, boolean, [string, number[]] | null]> =
  [
    // tf_idf is never assigned; df is bound only in cell 2 (cells 4-7 assign df['review']).
    ['NBspecific_1', 'tf_idf', false, ['df', [2]]],
    // X_train is only a parameter of plot_learning_curve (cell 1), local to it.
    ['NBspecific_2', 'X_train', false, ['X', [9, 10]]],
    // Only `import os` and a file listing ran.
    ['NBspecific_4', 'sns', false, ['filename', [0]]],
    // history (from model.fit) is never assigned; plt is imported in cells 0 and 12.
    ['NBspecific_6', 'history', false, ['plt', [0, 12]]],
    // Cell 2 imports numpy, pandas and os, not matplotlib.
    ['NBspecific_12', 'plt', false, ['summary', [3]]],
    ['NBspecific_13', 'X', false, ['df', [26]]],
    ['NBspecific_14', 'train_data', false, ['np', [0]]],
    // Only tar_images / tar_image are built; src_images never is.
    ['NBspecific_15', 'src_images', false, ['tar_images', [11]]],
    ['NBspecific_16', 'skin_df', false, ['INPUT_SHAPE', [1]]],
    ['NBspecific_17', 'X', false, ['train_df', [2]]],
    // y_pred is never assigned; the split in cell 24 binds y_test.
    ['NBspecific_18', 'y_pred', false, ['y_test', [24]]],
    // Nothing ran before the crash.
    ['NBspecific_19', 'torch', false, null],
    // multiplicative_model is local to decompose (cell 12), which returns it.
    ['NBspecific_20', 'multiplicative_model', false, ['decompose', [12]]]
  ];

describeReal('the real NB-specific cells (indentation lost)', () => {
  let nameErrorRows: IDescriptorRow[];
  const summary: string[] = [];

  beforeAll(async () => {
    const { rows } = await parseDescriptor(bytesOf(DESCRIPTOR));
    nameErrorRows = rows.filter(
      row =>
        NB_SPECIFIC.includes(row.name) &&
        row.ename.toLowerCase() === 'nameerror'
    );
  });

  afterAll(() => {
    if (summary.length) {
      console.log(
        [
          'case           missing               read by target  defined before crash',
          ...summary
        ].join('\n')
      );
    }
  });

  it('has one expectation per NameError row of the descriptor', () => {
    expect(nameErrorRows.map(row => row.name).sort()).toEqual(
      NAME_ERRORS.map(([name]) => name).sort()
    );
  });

  it.each(NB_SPECIFIC)(
    '%s: every cell parses and the target reads names',
    name => {
      const { executed, target } = loadCase(name);
      for (const cell of executed) {
        expect(() => namesDefined(cell.code)).not.toThrow();
        expect(() => namesRead(cell.code)).not.toThrow();
      }
      expect(() => namesDefined(target.code)).not.toThrow();
      expect(namesRead(target.code).length).toBeGreaterThan(0);
    }
  );

  it.each(NAME_ERRORS)(
    '%s: %s is read by the target; defined before the crash: %s',
    (name, missing, definedBefore, control) => {
      const row = nameErrorRows.find(r => r.name === name);
      expect(missingNameFromError(row?.evalue ?? '')).toBe(missing);

      const { executed, target } = loadCase(name);
      const reads = namesRead(target.code);
      expect(reads).toContain(missing);

      // Every recorded executed cell ran before the crash, in execution-count order.
      const ran = [...executed].sort(
        (a, b) => a.execution_count - b.execution_count
      );
      const cells: IDefinitionCell[] = ran.map(cell => ({
        source: cell.code,
        executionCount: cell.execution_count
      }));
      const defining = definitionSites(cells, missing).map(
        i => ran[i].code_cell_id
      );
      expect(defining.length > 0).toBe(definedBefore);
      if (control) {
        const [controlName, controlCells] = control;
        expect(
          definitionSites(cells, controlName).map(i => ran[i].code_cell_id)
        ).toEqual(controlCells);
      }
      summary.push(
        `${name.padEnd(15)}${missing.padEnd(22)}${String(reads.includes(missing)).padEnd(16)}${defining.length > 0 ? `yes (code cells ${defining.join(', ')})` : 'no'}`
      );
    }
  );
});
