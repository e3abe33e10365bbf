/**
 * The case header's environment line: where the kernel ran first, then what
 * differs from the benchmark pins.
 */
import { nullTranslator } from '@jupyterlab/translation';

import type { IDrift, IDriftReport } from '../../src/kernel/drift';
import { environmentLine } from '../../src/widgets/environmentLine';

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
const PYTHON: IDrift = {
  module: 'python',
  expected: '3.10',
  found: '3.11.7',
  kind: 'version',
  substitute: true
};

type Report = Pick<
  IDriftReport,
  'differences' | 'python' | 'checked' | 'environment' | 'image'
>;

/** A report of 11 libraries compared. */
function report(over: Partial<Report>): Report {
  return {
    differences: [],
    python: null,
    checked: 11,
    environment: 'server',
    image: null,
    ...over
  };
}

describe('environmentLine', () => {
  it.each<[string, Partial<Report>, string]>([
    [
      'the container with nothing different',
      { environment: 'container', image: 'junobench:latest@f041856032d3' },
      'Environment: in the benchmark container (image junobench:latest@f041856032d3).'
    ],
    [
      'the container without an image name',
      { environment: 'container' },
      'Environment: in the benchmark container.'
    ],
    [
      'the container with a difference',
      {
        environment: 'container',
        image: 'junobench:latest@f041856032d3',
        differences: [NUMPY]
      },
      'Environment: in the benchmark container (image junobench:latest@f041856032d3); 1 library differs from the benchmark pins: numpy 2.0.2 (pinned 1.26.4).'
    ],
    [
      'the container with another Python',
      { environment: 'container', python: PYTHON },
      'Environment: in the benchmark container; all 11 pinned libraries match the benchmark. Python 3.11.7 (benchmark: 3.10).'
    ],
    [
      'the pinned kernel with nothing different',
      { environment: 'pinned' },
      'Environment: in the pinned junobench kernel; all 11 pinned libraries match the benchmark.'
    ],
    [
      'the pinned kernel with a substitute',
      {
        environment: 'pinned',
        differences: [{ ...NUMPY, found: '1.26.5', substitute: true }]
      },
      'Environment: in the pinned junobench kernel; 1 library differs from the benchmark pins: numpy 1.26.5 (pinned 1.26.4, local substitute).'
    ],
    [
      "the server's Python with two differences and Python",
      { differences: [NUMPY, KERAS], python: PYTHON },
      "Environment: in the server's Python; 2 libraries differ from the benchmark pins: numpy 2.0.2 (pinned 1.26.4), keras not installed (pinned 3.4.1). Python 3.11.7 (benchmark: 3.10)."
    ],
    [
      "the server's Python matching the pins",
      {},
      "Environment: in the server's Python; all 11 pinned libraries match the benchmark."
    ]
  ])('%s', (_what, over, text) => {
    expect(environmentLine(report(over), trans)).toBe(text);
  });
});
