import { crashLineFromTraceback, findTarget } from '../../src/replay';

import { code, error, md, notebook } from './notebooks';

/** Tracebacks as IPython/ipykernel record them (ANSI colours included). */
namespace Tracebacks {
  const RULE =
    '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m';

  /** IPython 8: `Cell In[3], line 2` header, arrow on the same line. */
  export const ipython8 = [
    RULE,
    '\u001b[0;31mNameError\u001b[0m                                 Traceback (most recent call last)',
    'Cell \u001b[0;32mIn[3], line 2\u001b[0m\n\u001b[1;32m      1\u001b[0m x \u001b[38;5;241m=\u001b[39m \u001b[38;5;241m1\u001b[39m\n\u001b[0;32m----> 2\u001b[0m y \u001b[38;5;241m=\u001b[39m f(x)\n',
    "\u001b[0;31mNameError\u001b[0m: name 'f' is not defined"
  ];

  /** IPython 8: cell frame then sklearn frames with their own arrows. */
  export const ipython8Library = [
    RULE,
    '\u001b[0;31mNotFittedError\u001b[0m                            Traceback (most recent call last)',
    "Cell \u001b[0;32mIn[7], line 3\u001b[0m\n\u001b[1;32m      1\u001b[0m model \u001b[38;5;241m=\u001b[39m LinearRegression()\n\u001b[1;32m      2\u001b[0m X \u001b[38;5;241m=\u001b[39m df[[\u001b[38;5;124m'\u001b[39m\u001b[38;5;124ma\u001b[39m\u001b[38;5;124m'\u001b[39m]]\n\u001b[0;32m----> 3\u001b[0m \u001b[43mmodel\u001b[49m\u001b[38;5;241;43m.\u001b[39;49m\u001b[43mpredict\u001b[49m\u001b[43m(\u001b[49m\u001b[43mX\u001b[49m\u001b[43m)\u001b[49m\n",
    'File \u001b[0;32m/opt/conda/lib/python3.10/site-packages/sklearn/linear_model/_base.py:386\u001b[0m, in \u001b[0;36mLinearModel.predict\u001b[0;34m(self, X)\u001b[0m\n\u001b[1;32m    372\u001b[0m \u001b[38;5;28;01mdef\u001b[39;00m \u001b[38;5;21mpredict\u001b[39m(\u001b[38;5;28mself\u001b[39m, X):\n\u001b[0;32m--> 386\u001b[0m     \u001b[38;5;28;01mreturn\u001b[39;00m \u001b[38;5;28mself\u001b[39m\u001b[38;5;241m.\u001b[39m_decision_function(X)\n',
    'File \u001b[0;32m/opt/conda/lib/python3.10/site-packages/sklearn/utils/validation.py:1461\u001b[0m, in \u001b[0;36mcheck_is_fitted\u001b[0;34m(estimator, attributes, msg, all_or_any)\u001b[0m\n\u001b[0;32m-> 1461\u001b[0m     \u001b[38;5;28;01mraise\u001b[39;00m NotFittedError(msg)\n',
    '\u001b[0;31mNotFittedError\u001b[0m: This LinearRegression instance is not fitted yet.'
  ];

  /** IPython 7 on Kaggle: `/tmp/ipykernel_…py in <module>`, only the arrow gives the line; library arrows follow. */
  export const ipykernelLibrary = [
    RULE,
    '\u001b[0;31mValueError\u001b[0m                                Traceback (most recent call last)',
    '\u001b[0;32m/tmp/ipykernel_27/2375498411.py\u001b[0m in \u001b[0;36m<module>\u001b[0;34m\u001b[0m\n\u001b[1;32m      3\u001b[0m \u001b[0;34m\u001b[0m\u001b[0m\n\u001b[1;32m      4\u001b[0m \u001b[0mX\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0mdf\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0;32m----> 5\u001b[0;31m \u001b[0mmodel\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mfit\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0mX\u001b[0m\u001b[0;34m,\u001b[0m \u001b[0my\u001b[0m\u001b[0;34m)\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0m',
    '\u001b[0;32m/opt/conda/lib/python3.7/site-packages/sklearn/linear_model/_base.py\u001b[0m in \u001b[0;36mfit\u001b[0;34m(self, X, y, sample_weight)\u001b[0m\n\u001b[1;32m    660\u001b[0m \u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0;32m--> 662\u001b[0;31m         X, y = self._validate_data(X, y, accept_sparse=accept_sparse)\n\u001b[0m',
    '\u001b[0;32m/opt/conda/lib/python3.7/site-packages/sklearn/utils/validation.py\u001b[0m in \u001b[0;36mcheck_array\u001b[0;34m(array, accept_sparse)\u001b[0m\n\u001b[0;32m--> 800\u001b[0;31m             \u001b[0;32mraise\u001b[0m \u001b[0mValueError\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0mmsg\u001b[0m\u001b[0;34m)\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0m',
    "\u001b[0;31mValueError\u001b[0m: Input contains NaN, infinity or a value too large for dtype('float64')."
  ];

  /** IPython 7.34 (Colab): `<ipython-input-…> in <cell line: 4>()`, header line, arrow cut off. */
  export const cellLine = [
    RULE,
    '\u001b[0;31mValueError\u001b[0m                                Traceback (most recent call last)',
    '\u001b[0;32m<ipython-input-6-3ea0965a5d70>\u001b[0m in \u001b[0;36m<cell line: 4>\u001b[0;34m()\u001b[0m\n\u001b[1;32m      2\u001b[0m \u001b[0mscaler\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0mStandardScaler\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0;34m)\u001b[0m\n\u001b[1;32m      3\u001b[0m \u001b[0mtrain_df\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0mscaler\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mfit_transform\u001b[0m\u001b[0;',
    '\u001b[0;32m/usr/local/lib/python3.10/dist-packages/sklearn/base.py\u001b[0m in \u001b[0;36m_check_feature_names\u001b[0;34m(self, X, reset)\u001b[0m\n\u001b[1;32m    479\u001b[0m                 )\n\u001b[0;32m--> 481\u001b[0;31m             \u001b[0;32mraise\u001b[0m \u001b[0mValueError\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0mmessage\u001b[0m\n',
    '\u001b[0;31mValueError\u001b[0m: The feature names should match those that were passed during fit.'
  ];

  /**
   * IPython 7.34 with ipykernel 6 (the benchmark container): the cell's frame is
   * named `<cell line: 0>`, which is no line; the arrow says 4.
   */
  export const cellLineZero = [
    RULE,
    '\u001b[0;31mValueError\u001b[0m                                Traceback (most recent call last)',
    '\u001b[0;32m/tmp/ipykernel_7/2863129371.py\u001b[0m in \u001b[0;36m<cell line: 0>\u001b[0;34m()\u001b[0m\n\u001b[1;32m      2\u001b[0m \u001b[0mmu\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0mdata\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mmean\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0maxis\u001b[0m\u001b[0;34m=\u001b[0m\u001b[0;36m1\u001b[0m\u001b[0;34m)\u001b[0m\n\u001b[1;32m      3\u001b[0m \u001b[0msigma\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0mdata\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mstd\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0maxis\u001b[0m\u001b[0;34m=\u001b[0m\u001b[0;36m1\u001b[0m\u001b[0;34m)\u001b[0m\n\u001b[0;32m----> 4\u001b[0;31m \u001b[0mZ\u001b[0m \u001b[0;34m=\u001b[0m \u001b[0;34m(\u001b[0m\u001b[0mdata\u001b[0m \u001b[0;34m-\u001b[0m \u001b[0mmu\u001b[0m\u001b[0;34m)\u001b[0m \u001b[0;34m/\u001b[0m \u001b[0msigma\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0m\u001b[1;32m      5\u001b[0m \u001b[0mZ\u001b[0m\u001b[0;34m[\u001b[0m\u001b[0;34m:\u001b[0m\u001b[0;36m5\u001b[0m\u001b[0;34m]\u001b[0m\n',
    '\u001b[0;31mValueError\u001b[0m: operands could not be broadcast together with shapes (150,4) (150,) '
  ];

  /** IPython 8.0–8.4: `Input In [5], in <cell line: 3>()`. */
  export const inputIn = [
    RULE,
    '\u001b[0;31mKeyError\u001b[0m                                  Traceback (most recent call last)',
    "Input \u001b[0;32mIn [5]\u001b[0m, in \u001b[0;36m<cell line: 3>\u001b[0;34m()\u001b[0m\n\u001b[1;32m      1\u001b[0m df \u001b[38;5;241m=\u001b[39m load()\n\u001b[1;32m      2\u001b[0m df\u001b[38;5;241m.\u001b[39mhead()\n\u001b[0;32m----> 3\u001b[0m df[\u001b[38;5;124m'\u001b[39m\u001b[38;5;124mprice\u001b[39m\u001b[38;5;124m'\u001b[39m]\n",
    "\u001b[0;31mKeyError\u001b[0m: 'price'"
  ];

  /** IPython 7 `<ipython-input-…> in <module>` with only an arrow, then a library frame. */
  export const ipythonInputModule = [
    RULE,
    '\u001b[0;31mTypeError\u001b[0m                                 Traceback (most recent call last)',
    '\u001b[0;32m<ipython-input-12-8a1b2c3d4e5f>\u001b[0m in \u001b[0;36m<module>\u001b[0;34m\u001b[0m\n\u001b[1;32m      1\u001b[0m \u001b[0mplt\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mfigure\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0;34m)\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0;32m----> 2\u001b[0;31m \u001b[0mplt\u001b[0m\u001b[0;34m.\u001b[0m\u001b[0mplot\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0mx\u001b[0m\u001b[0;34m)\u001b[0m\u001b[0;34m\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0m',
    '\u001b[0;32m<__array_function__ internals>\u001b[0m in \u001b[0;36mconcatenate\u001b[0;34m(*args, **kwargs)\u001b[0m\n',
    '\u001b[0;32m/usr/lib/python3/dist-packages/matplotlib/pyplot.py\u001b[0m in \u001b[0;36mplot\u001b[0;34m(*args)\u001b[0m\n\u001b[0;32m-> 2757\u001b[0;31m     \u001b[0;32mreturn\u001b[0m \u001b[0mgca\u001b[0m\u001b[0;34m(\u001b[0m\u001b[0;34m)\u001b[0m\u001b[0;34m\u001b[0m\u001b[0m\n\u001b[0m',
    "\u001b[0;31mTypeError\u001b[0m: unhashable type: 'list'"
  ];

  /** pandas KeyError chain: library frames first, then the cell's frame after the chain separator. */
  export const chained = [
    RULE,
    '\u001b[0;31mKeyError\u001b[0m                                  Traceback (most recent call last)',
    'File \u001b[0;32m/opt/conda/lib/python3.10/site-packages/pandas/core/indexes/base.py:3802\u001b[0m, in \u001b[0;36mIndex.get_loc\u001b[0;34m(self, key)\u001b[0m\n\u001b[0;32m-> 3802\u001b[0m     \u001b[38;5;28;01mreturn\u001b[39;00m \u001b[38;5;28mself\u001b[39m\u001b[38;5;241m.\u001b[39m_engine\u001b[38;5;241m.\u001b[39mget_loc(casted_key)\n',
    "\u001b[0;31mKeyError\u001b[0m: 'Age'",
    '\nThe above exception was the direct cause of the following exception:\n',
    '\u001b[0;31mKeyError\u001b[0m                                  Traceback (most recent call last)',
    "Cell \u001b[0;32mIn[4], line 2\u001b[0m\n\u001b[1;32m      1\u001b[0m df \u001b[38;5;241m=\u001b[39m train\u001b[38;5;241m.\u001b[39mcopy()\n\u001b[0;32m----> 2\u001b[0m df[\u001b[38;5;124m'\u001b[39m\u001b[38;5;124mAge\u001b[39m\u001b[38;5;124m'\u001b[39m]\u001b[38;5;241m.\u001b[39mmean()\n",
    'File \u001b[0;32m/opt/conda/lib/python3.10/site-packages/pandas/core/frame.py:3807\u001b[0m, in \u001b[0;36mDataFrame.__getitem__\u001b[0;34m(self, key)\u001b[0m\n\u001b[0;32m-> 3807\u001b[0m indexer \u001b[38;5;241m=\u001b[39m \u001b[38;5;28mself\u001b[39m\u001b[38;5;241m.\u001b[39mcolumns\u001b[38;5;241m.\u001b[39mget_loc(key)\n',
    "\u001b[0;31mKeyError\u001b[0m: 'Age'"
  ];

  /** A function defined in an earlier cell fails: the executing cell's frame comes first. */
  export const otherCellFrame = [
    RULE,
    '\u001b[0;31mZeroDivisionError\u001b[0m                         Traceback (most recent call last)',
    'Cell \u001b[0;32mIn[9], line 2\u001b[0m\n\u001b[1;32m      1\u001b[0m values \u001b[38;5;241m=\u001b[39m []\n\u001b[0;32m----> 2\u001b[0m ratio(values)\n',
    'Cell \u001b[0;32mIn[6], line 4\u001b[0m, in \u001b[0;36mratio\u001b[0;34m(xs)\u001b[0m\n\u001b[0;32m----> 4\u001b[0m \u001b[38;5;28;01mreturn\u001b[39;00m \u001b[38;5;28msum\u001b[39m(xs) \u001b[38;5;241m/\u001b[39m \u001b[38;5;28mlen\u001b[39m(xs)\n',
    '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'
  ];

  /** IPython 8 SyntaxError: no frames, a header with the line. */
  export const syntaxError = [
    '\u001b[0;36m  Cell \u001b[0;32mIn[2], line 4\u001b[0;36m\u001b[0m\n\u001b[0;31m    print(x\u001b[0m\n\u001b[0m           ^\u001b[0m\n\u001b[0;31mSyntaxError\u001b[0m\u001b[0;31m:\u001b[0m incomplete input\n'
  ];

  /** Plain Python format naming an `<ipython-input-…>` file. */
  export const plainPython = [
    'Traceback (most recent call last):\n',
    '  File "<ipython-input-3-1f2e3d4c5b6a>", line 2, in <module>\n    y = f(x)\n',
    '  File "/usr/lib/python3.8/functools.py", line 875, in wrapper\n    return dispatch(args[0].__class__)(*args, **kw)\n',
    "NameError: name 'f' is not defined\n"
  ];

  /** ipykernel file in the plain Python format. */
  export const plainIpykernel = [
    'Traceback (most recent call last):\n',
    '  File "/tmp/ipykernel_4242/123456789.py", line 7, in <module>\n    model.fit(X)\n',
    "AttributeError: 'NoneType' object has no attribute 'fit'\n"
  ];

  /** An older excerpt: only the arrow line survived. */
  export const arrowOnly = ['----> 2 y = f(x)\n'];

  /** Only library frames (e.g. a crash inside an import hook): no cell line. */
  export const libraryOnly = [
    RULE,
    'File \u001b[0;32m/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py:1501\u001b[0m, in \u001b[0;36mModule._call_impl\u001b[0;34m(self, *args)\u001b[0m\n\u001b[0;32m-> 1501\u001b[0m     \u001b[38;5;28;01mreturn\u001b[39;00m forward_call(\u001b[38;5;241m*\u001b[39margs)\n',
    '\u001b[0;31mRuntimeError\u001b[0m: CUDA out of memory.'
  ];
}

describe('crashLineFromTraceback', () => {
  it.each([
    ['IPython 8 `Cell In[3], line 2`', Tracebacks.ipython8, 2],
    [
      'IPython 8 cell frame before library frames',
      Tracebacks.ipython8Library,
      3
    ],
    [
      'ipykernel file, arrow only, library arrows later',
      Tracebacks.ipykernelLibrary,
      5
    ],
    ['`<cell line: 4>()` with the arrow cut off', Tracebacks.cellLine, 4],
    [
      '`<cell line: 0>()` (IPython 7.34): the arrow',
      Tracebacks.cellLineZero,
      4
    ],
    ['`Input In [5], in <cell line: 3>()`', Tracebacks.inputIn, 3],
    ['`<ipython-input-…> in <module>` arrow', Tracebacks.ipythonInputModule, 2],
    [
      'chained exception: the last exception’s cell frame',
      Tracebacks.chained,
      2
    ],
    [
      'executing cell first, not the cell defining the function',
      Tracebacks.otherCellFrame,
      2
    ],
    ['SyntaxError header', Tracebacks.syntaxError, 4],
    [
      'plain Python `File "<ipython-input-…>", line 2`',
      Tracebacks.plainPython,
      2
    ],
    ['plain Python ipykernel file', Tracebacks.plainIpykernel, 7],
    ['bare arrow excerpt', Tracebacks.arrowOnly, 2],
    ['library frames only', Tracebacks.libraryOnly, null],
    ['empty traceback', [], null]
  ])('%s', (_name, traceback: string[], expected: number | null) => {
    expect(crashLineFromTraceback(traceback)).toBe(expected);
  });
});

describe('findTarget', () => {
  it('takes the first code cell in document order with an error output', () => {
    const nb = notebook(
      md('# Title'),
      code('import numpy as np', 1),
      md('text'),
      code('x = 1\ny = f(x)', 3, [
        error('NameError', "name 'f' is not defined", Tracebacks.ipython8)
      ]),
      code('z', 2, [error('NameError', "name 'z' is not defined")])
    );
    expect(findTarget(nb)).toEqual({
      cellIndex: 3,
      codeCellIndex: 1,
      ename: 'NameError',
      evalue: "name 'f' is not defined",
      traceback: [
        '---------------------------------------------------------------------------',
        'NameError                                 Traceback (most recent call last)',
        'Cell In[3], line 2\n      1 x = 1\n----> 2 y = f(x)\n',
        "NameError: name 'f' is not defined"
      ],
      line: 2
    });
  });

  it.each([
    ['no outputs at all', notebook(code('x = 1', 1), md('no error'))],
    [
      'only stream outputs',
      notebook(
        code('print(1)', 1, [
          { output_type: 'stream', name: 'stdout', text: '1\n' }
        ])
      )
    ],
    ['an error-looking markdown cell', notebook(md('NameError: x'))]
  ])('is null with %s', (_name, nb) => {
    expect(findTarget(nb)).toBeNull();
  });

  it('keeps a missing traceback as an empty list and a null line', () => {
    const nb = notebook(code('boom()', 1, [error('RuntimeError', 'boom')]));
    expect(findTarget(nb)).toMatchObject({ traceback: [], line: null });
  });
});
