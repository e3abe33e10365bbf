/**
 * Each fact once: a reason whose exception is the one the replay already
 * shows refers to it ("the same error as the replay") instead of repeating
 * it, and repeats it when it is another one (same class, other message) or
 * when nothing is shown; the environment reason refers to the Environment
 * section when that section is beside it.
 */
import { nullTranslator } from '@jupyterlab/translation';

import { cellRef } from '../../src/i18n';
import type { CheckFinding, IFindingContext } from '../../src/repair/findings';
import { renderFinding } from '../../src/repair/findings';

const trans = nullTranslator.load('jupyterlab_junobench');
const __ = trans.__.bind(trans);

const ENAME = 'ValueError';
const EVALUE =
  'operands could not be broadcast together with shapes (150,4) (150,)';
const EXCEPTION = `${ENAME}: ${EVALUE}`;
const SAME = 'the same error as the replay';

/** The contexts a reason is rendered in, and whether it names the error shown. */
const CONTEXTS: Array<[string, IFindingContext | undefined, boolean]> = [
  ['no context', undefined, false],
  ['nothing shown', { shownError: null }, false],
  [
    'the same error shown',
    { shownError: { ename: ENAME, evalue: EVALUE } },
    true
  ],
  [
    'the same class with another message shown',
    { shownError: { ename: ENAME, evalue: 'shapes (3,) (4,)' } },
    false
  ],
  [
    'another class with the same message shown',
    { shownError: { ename: 'TypeError', evalue: EVALUE } },
    false
  ]
];

const C7 = cellRef(6, 4);

/** Findings that carry the exception, and what each sentence must still name. */
const FINDINGS: Array<[string, CheckFinding, string[]]> = [
  [
    'fresh-error on a line',
    {
      code: 'fresh-error',
      cell: C7,
      line: 3,
      ename: ENAME,
      evalue: EVALUE,
      afterTarget: false
    },
    ['From a fresh kernel, cell 7 [4], line 3 raised']
  ],
  [
    'fresh-error without a line, after the target',
    {
      code: 'fresh-error',
      cell: C7,
      line: null,
      ename: ENAME,
      evalue: EVALUE,
      afterTarget: true
    },
    ['From a fresh kernel, cell 7 [4] (after the target) raised']
  ],
  [
    'swallowed in the cell',
    {
      code: 'swallowed',
      cell: C7,
      line: 2,
      ename: ENAME,
      evalue: EVALUE,
      where: 'cell'
    },
    ['In cell 7 [4], line 2 raised', 'the crash is hidden, not fixed']
  ],
  [
    'swallowed, where not said',
    { code: 'swallowed', cell: C7, line: 2, ename: ENAME, evalue: EVALUE },
    ['In cell 7 [4], line 2 raised', 'the cell swallowed it']
  ],
  [
    'swallowed by a helper of a cell that ran',
    {
      code: 'swallowed',
      cell: C7,
      line: 2,
      ename: ENAME,
      evalue: EVALUE,
      where: 'helper',
      helperCount: 3
    },
    ['While cell 7 [4] ran,', 'a function defined in cell [3]']
  ],
  [
    'swallowed by a helper of an unknown cell',
    {
      code: 'swallowed',
      cell: C7,
      line: 2,
      ename: ENAME,
      evalue: EVALUE,
      where: 'helper',
      helperCount: null
    },
    ['While cell 7 [4] ran,', 'a function defined in another cell']
  ],
  [
    'lost in a thread',
    {
      code: 'swallowed',
      cell: C7,
      line: 2,
      ename: ENAME,
      evalue: EVALUE,
      where: 'thread'
    },
    ['While cell 7 [4] ran,', 'in another thread and lost there']
  ],
  [
    'live-swallowed',
    { code: 'live-swallowed', cell: C7, ename: ENAME, evalue: EVALUE },
    ['In your live kernel (replayed as it ran), cell 7 [4] caught']
  ]
];

/** Every finding in every context. */
const CASES = FINDINGS.flatMap(([what, finding, kept]) =>
  CONTEXTS.map(
    ([shown, context, same]) =>
      [what, shown, finding, context, same, kept] as const
  )
);

describe('renderFinding with what is already shown', () => {
  it.each(CASES)('%s, %s', (_what, _shown, finding, context, same, kept) => {
    const sentence = renderFinding(finding, __, context);
    expect(sentence.includes(EXCEPTION)).toBe(!same);
    expect(sentence.includes(SAME)).toBe(same);
    // Neither the class nor the message is left over on its own.
    if (same) {
      expect(sentence).not.toContain(ENAME);
      expect(sentence).not.toContain(EVALUE);
    }
    for (const part of kept) {
      expect(sentence).toContain(part);
    }
  });

  it.each(FINDINGS)(
    '%s without a context is the English the command line prints',
    (_what, finding) => {
      expect(renderFinding(finding, __)).toBe(renderFinding(finding));
      expect(renderFinding(finding, __, {})).toBe(renderFinding(finding));
    }
  );
});

describe('the environment reason beside the Environment section', () => {
  const ENVIRONMENT: CheckFinding = {
    code: 'environment',
    libraries: [
      { name: 'numpy', found: '2.0.2', pinned: '1.26.4' },
      { name: 'keras', found: null, pinned: '3.4.1' }
    ],
    python: { found: '3.11', pinned: '3.10' }
  };
  const LISTED = [
    'numpy 2.0.2 (benchmark 1.26.4)',
    'keras not installed (benchmark 3.4.1)',
    'Python 3.11 (benchmark 3.10)'
  ];

  it.each<[string, IFindingContext | undefined, boolean]>([
    ['no context', undefined, false],
    ['the section not shown', { environmentShown: false }, false],
    [
      'an error shown, the section not',
      { shownError: { ename: ENAME, evalue: EVALUE } },
      false
    ],
    ['the section shown', { environmentShown: true }, true],
    [
      'the section and an error shown',
      {
        environmentShown: true,
        shownError: { ename: ENAME, evalue: EVALUE }
      },
      true
    ]
  ])('%s', (_what, context, shown) => {
    const sentence = renderFinding(ENVIRONMENT, __, context);
    expect(sentence).toMatch(/^This kernel is not the benchmark’s environment/);
    expect(sentence.includes('(see Environment)')).toBe(shown);
    for (const item of LISTED) {
      expect(sentence.includes(item)).toBe(!shown);
    }
  });
});
