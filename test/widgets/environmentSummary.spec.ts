/**
 * The side panel's environment summary: where the kernel runs and how many
 * things differ from the benchmark, in one line (the differences themselves
 * are in the table on demand), singular or plural as the translator says.
 */
import { nullTranslator } from '@jupyterlab/translation';

import type { IDrift, IDriftReport } from '../../src/kernel/drift';
import {
  environmentPlace,
  environmentSummary
} from '../../src/widgets/environmentLine';

const trans = nullTranslator.load('jupyterlab_junobench');

const NUMPY: IDrift = {
  module: 'numpy',
  expected: '1.26.4',
  found: '2.0.2',
  kind: 'version',
  substitute: false
};
const KERAS: IDrift = {
  module: 'keras',
  expected: '3.4.1',
  found: null,
  kind: 'missing',
  substitute: false
};
const PANDAS: IDrift = {
  module: 'pandas',
  expected: '2.2.2',
  found: '2.2.3',
  kind: 'version',
  substitute: true
};
const PYTHON: IDrift = {
  module: 'python',
  expected: '3.10',
  found: '3.11.7',
  kind: 'version',
  substitute: true
};

type Report = Pick<
  IDriftReport,
  'differences' | 'python' | 'environment' | 'image'
>;

const IMAGE = 'junobench:latest@f041856032d3';

/** Each place, the report fields that put the kernel there, and its phrase. */
const PLACES: Array<[Pick<Report, 'environment' | 'image'>, string]> = [
  [
    { environment: 'container', image: IMAGE },
    `the benchmark container (image ${IMAGE})`
  ],
  [{ environment: 'container', image: null }, 'the benchmark container'],
  [{ environment: 'pinned', image: null }, 'the pinned junobench kernel'],
  [{ environment: 'server', image: null }, "the server's Python"]
];

/** How many libraries differ, and whether Python does: the line after the place. */
const DIFFERENCES: Array<[IDrift[], IDrift | null, (place: string) => string]> =
  [
    [[], null, p => `Environment: in the benchmark environment (${p}).`],
    [
      [],
      PYTHON,
      p => `Environment: ${p}; its Python differs from the benchmark.`
    ],
    [
      [NUMPY],
      null,
      p => `Environment: ${p}; 1 library differs from the benchmark.`
    ],
    [
      [KERAS],
      PYTHON,
      p => `Environment: ${p}; Python and 1 library differ from the benchmark.`
    ],
    [
      [NUMPY, KERAS],
      null,
      p => `Environment: ${p}; 2 libraries differ from the benchmark.`
    ],
    [
      [NUMPY, KERAS, PANDAS],
      PYTHON,
      p =>
        `Environment: ${p}; Python and 3 libraries differ from the benchmark.`
    ]
  ];

/** Every place with every set of differences. */
const TABLE = PLACES.flatMap(([where, place]) =>
  DIFFERENCES.map(
    ([differences, python, line]) =>
      [
        where.environment,
        where.image ?? 'no image',
        differences.length,
        python ? 'Python differs' : 'same Python',
        { ...where, differences, python } as Report,
        line(place)
      ] as const
  )
);

describe('environmentPlace', () => {
  it.each(PLACES)('%j is %s', (where, place) => {
    expect(environmentPlace(where, trans)).toBe(place);
  });
});

describe('environmentSummary', () => {
  it.each(TABLE)(
    '%s (%s), %i libraries, %s',
    (_env, _image, _n, _python, report, line) => {
      expect(environmentSummary(report, trans)).toBe(line);
    }
  );

  it('names no library: the differences are for the table', () => {
    const line = environmentSummary(
      {
        environment: 'server',
        image: null,
        differences: [NUMPY, KERAS],
        python: PYTHON
      },
      trans
    );
    for (const word of ['numpy', 'keras', '2.0.2', '3.11.7']) {
      expect(line).not.toContain(word);
    }
  });
});
