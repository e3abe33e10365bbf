/**
 * Environment drift: the pure comparison with the benchmark pins, the pins
 * module kept in step with jupyterlab_junobench/pins.json, and the probe in a
 * real kernel.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import { KernelManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import {
  compareEnvironment,
  describeDrift,
  driftSummary,
  probedEnvironment,
  readProbe,
  probedDistributions,
  sameVersion
} from '../../src/kernel/drift';
import type { IEnvironmentProbe, IPins } from '../../src/kernel/drift';
import { BENCHMARK_PINS } from '../../src/kernel/pins';
import { probeEnvironment } from '../../src/kernel/probe';

import { sharedServer } from '../sharedServer';

const PINS: IPins = {
  source: { repository: 'r', commit: 'c', files: [] },
  python: { pinned: '3.10', local: '3.11', reason: 'local Python' },
  libraries: [
    { name: 'numpy', pinned: '1.26.4', group: 'minimal' },
    { name: 'scikit-learn', pinned: '1.2.2', group: 'minimal' },
    {
      name: 'tensorflow',
      pinned: '2.17.0',
      group: 'full',
      distributions: ['tensorflow', 'tensorflow-cpu'],
      local: {
        requirement: 'tensorflow-cpu==2.17.0',
        version: '2.17.0',
        reason: 'cpu'
      }
    },
    {
      name: 'torch',
      pinned: '2.3.1',
      group: 'full',
      local: { requirement: 'torch==2.13.0', version: '2.13.0', reason: 'cpu' }
    },
    { name: 'spacy', pinned: '3.7.6', group: 'other' }
  ]
};

function probe(
  versions: Record<string, string | null>,
  python = '3.10.14'
): IEnvironmentProbe {
  return { python, prefix: '/venv', cwd: '/work', versions };
}

describe('sameVersion', () => {
  it.each([
    ['1.26.4', '1.26.4', true],
    ['2.0.2', '1.26.4', false],
    ['2.3.1+cpu', '2.3.1', true],
    ['3.10.14', '3.10', true],
    ['3.11.7', '3.10', false],
    ['3.1', '3.10', false],
    ['1.2', '1.2.2', false],
    [' 4.6.0 ', '4.6.0', true]
  ])('%s satisfies %s: %s', (found, pinned, expected) => {
    expect(sameVersion(found, pinned)).toBe(expected);
  });
});

describe('compareEnvironment', () => {
  it('reports nothing when every pinned library and Python match', () => {
    const report = compareEnvironment(
      probe({
        numpy: '1.26.4',
        'scikit-learn': '1.2.2',
        tensorflow: null,
        'tensorflow-cpu': '2.17.0',
        torch: '2.3.1+cpu'
      }),
      PINS
    );
    expect(report.differences).toEqual([]);
    expect(report.python).toBeNull();
    expect(report.checked).toBe(4);
    expect(report.summary).toBe(
      "environment: the server's Python; all 4 pinned libraries match the benchmark pins"
    );
  });

  it('lists other versions, missing libraries, substitutes and Python', () => {
    const report = compareEnvironment(
      probe(
        {
          numpy: '2.0.2',
          'scikit-learn': '1.2.2',
          tensorflow: null,
          'tensorflow-cpu': null,
          torch: '2.13.0+cpu'
        },
        '3.11.7'
      ),
      PINS
    );
    expect(report.differences).toEqual([
      {
        module: 'numpy',
        expected: '1.26.4',
        found: '2.0.2',
        kind: 'version',
        substitute: false
      },
      {
        module: 'tensorflow',
        expected: '2.17.0',
        found: null,
        kind: 'missing',
        substitute: false
      },
      {
        module: 'torch',
        expected: '2.3.1',
        found: '2.13.0+cpu',
        kind: 'version',
        substitute: true
      }
    ]);
    expect(report.python).toEqual({
      module: 'python',
      expected: '3.10',
      found: '3.11.7',
      kind: 'version',
      substitute: true
    });
    expect(report.prefix).toBe('/venv');
    expect(report.environment).toBe('server');
    expect(report.image).toBeNull();
    expect(report.summary).toBe(
      "environment: the server's Python; 3 libraries differ from the benchmark pins: numpy 2.0.2 (pinned 1.26.4), tensorflow not installed (pinned 2.17.0), torch 2.13.0+cpu (pinned 2.3.1, local substitute); Python 3.11.7 (pinned 3.10, local substitute)"
    );
  });

  it('treats a distribution absent from the probe as not installed', () => {
    const report = compareEnvironment(probe({ numpy: '1.26.4' }), PINS, [
      'minimal'
    ]);
    expect(report.checked).toBe(2);
    expect(report.summary).toBe(
      "environment: the server's Python; 1 library differs from the benchmark pins: scikit-learn not installed (pinned 1.2.2)"
    );
  });

  it.each([
    [
      {
        module: 'keras',
        expected: '3.4.1',
        found: null,
        kind: 'missing' as const,
        substitute: false
      },
      'keras not installed (pinned 3.4.1)'
    ],
    [
      {
        module: 'python',
        expected: '3.10',
        found: '3.12.1',
        kind: 'version' as const,
        substitute: false
      },
      'Python 3.12.1 (pinned 3.10)'
    ]
  ])('describes %o as %s', (drift, text) => {
    expect(describeDrift(drift)).toBe(text);
  });
});

describe('where the kernel ran', () => {
  const matching = {
    numpy: '1.26.4',
    'scikit-learn': '1.2.2',
    'tensorflow-cpu': '2.17.0',
    torch: '2.3.1'
  };

  it('leads with the container and its image', () => {
    const report = compareEnvironment(
      {
        ...probe(matching),
        environment: 'container',
        image: 'junobench:latest@f041856032d3'
      },
      PINS
    );
    expect(report.environment).toBe('container');
    expect(report.image).toBe('junobench:latest@f041856032d3');
    expect(report.summary).toBe(
      'environment: the benchmark container (image junobench:latest@f041856032d3); all 4 pinned libraries match the benchmark pins'
    );
  });

  it('leads with the pinned kernel, and lists what differs after it', () => {
    const report = compareEnvironment(
      {
        ...probe({ ...matching, numpy: '2.0.2' }),
        environment: 'pinned',
        image: null
      },
      PINS
    );
    expect(report.environment).toBe('pinned');
    expect(report.summary).toBe(
      'environment: the pinned junobench kernel; 1 library differs from the benchmark pins: numpy 2.0.2 (pinned 1.26.4)'
    );
  });

  it.each<
    [string, { environment?: string | null; image?: string | null }, string]
  >([
    ['an old probe without the fields', {}, 'server'],
    ['null variables', { environment: null, image: null }, 'server'],
    ['the container', { environment: 'container' }, 'container'],
    ['the pinned kernel', { environment: 'pinned' }, 'pinned'],
    // A variable set to something else, or an image alone, proves nothing.
    ['an unknown name', { environment: 'cloud' }, 'server'],
    [
      'an image without the environment',
      { image: 'junobench:latest' },
      'server'
    ],
    ['a capitalised name', { environment: 'Container' }, 'server']
  ])('takes %s as %s', (_what, fields, expected) => {
    expect(probedEnvironment(fields)).toBe(expected);
    const report = compareEnvironment(
      readProbe({ ...probe(matching), ...fields }),
      PINS
    );
    expect(report.environment).toBe(expected);
    // An image is only reported from the container.
    expect(report.image).toBe(
      expected === 'container'
        ? ((fields as { image?: string }).image ?? null)
        : null
    );
  });

  it('says the container without an image when the kernel names none', () => {
    expect(
      driftSummary({
        differences: [],
        python: null,
        checked: 4,
        environment: 'container',
        image: null
      })
    ).toBe(
      'environment: the benchmark container; all 4 pinned libraries match the benchmark pins'
    );
  });
});

describe('probedDistributions', () => {
  it('lists every distribution of the compared groups once', () => {
    expect(probedDistributions(PINS)).toEqual([
      'numpy',
      'scikit-learn',
      'tensorflow',
      'tensorflow-cpu',
      'torch'
    ]);
    expect(probedDistributions(PINS, ['other'])).toEqual(['spacy']);
  });
});

describe('readProbe', () => {
  it('takes an answer of the probe’s shape', () => {
    expect(readProbe(probe({ numpy: '1.26.4' }))).toEqual(
      probe({ numpy: '1.26.4' })
    );
  });

  it('takes the environment and image a new kernel adds', () => {
    const value = {
      ...probe({ numpy: '1.26.4' }),
      environment: 'container',
      image: 'junobench:latest@f041856032d3'
    };
    expect(readProbe(value)).toEqual(value);
  });

  it.each([
    ['', /no usable answer/],
    [{ python: '3.11' }, /no usable answer/],
    [{ ...probe({}), environment: 3 }, /no usable answer/],
    [{ ...probe({}), image: ['junobench'] }, /no usable answer/],
    [JSON.stringify(probe({ numpy: '1.26.4' })), /no usable answer/],
    [null, /no usable answer/]
  ])('rejects %j', (value, message) => {
    expect(() => readProbe(value)).toThrow(message);
  });
});

describe('BENCHMARK_PINS', () => {
  it('is jupyterlab_junobench/pins.json (run node scripts/sync-pins.js after editing it)', () => {
    const json = JSON.parse(
      readFileSync(
        path.resolve(__dirname, '../../jupyterlab_junobench/pins.json'),
        'utf8'
      )
    );
    delete json.$comment;
    expect(BENCHMARK_PINS).toEqual(json);
  });

  it('has one entry per library and a local reason for every substitute', () => {
    const names = BENCHMARK_PINS.libraries.map(l => l.name);
    expect(new Set(names).size).toBe(names.length);
    for (const lib of BENCHMARK_PINS.libraries) {
      if (lib.local) {
        expect(lib.local.reason.length).toBeGreaterThan(20);
      }
    }
    expect(BENCHMARK_PINS.libraries.find(l => l.name === 'numpy')?.pinned).toBe(
      '1.26.4'
    );
  });
});

describe('probeEnvironment in a real kernel', () => {
  jest.setTimeout(120000);
  const server = sharedServer();
  let manager: KernelManager;
  let kernel: Kernel.IKernelConnection;

  beforeAll(async () => {
    manager = new KernelManager({ serverSettings: server.settings });
    await manager.ready;
    kernel = await manager.startNew({ name: 'python3' });
    await kernel.info;
  });

  afterAll(async () => {
    await kernel.shutdown().catch(() => undefined);
    manager.dispose();
  });

  it('reports the kernel Python, prefix and library versions without using an execution count', async () => {
    const result = await probeEnvironment(kernel, BENCHMARK_PINS);
    expect(result.python).toMatch(/^3\.\d+\.\d+/);
    expect(result.prefix).toBeTruthy();
    // The test environment has numpy (requirements-dev.txt) and no keras.
    expect(result.versions.numpy).toMatch(/^\d+\.\d+/);
    expect(Object.keys(result.versions)).toEqual(
      probedDistributions(BENCHMARK_PINS)
    );
    // A plain python3 kernel carries no JUNOBENCH_ENVIRONMENT: the server's Python.
    expect(result.environment ?? null).toBeNull();
    expect(result.image ?? null).toBeNull();
    const report = compareEnvironment(result, BENCHMARK_PINS);
    expect(report.environment).toBe('server');
    expect(report.summary).toMatch(/^environment: the server's Python; /);
    // Silent: the next visible execution is still number 1.
    const reply = await kernel.requestExecute({ code: '1' }).done;
    expect(reply.content.execution_count).toBe(1);
  });

  it('rejects saying so when the kernel does not answer in time', async () => {
    const busy = kernel.requestExecute({ code: 'import time; time.sleep(3)' });
    await expect(
      probeEnvironment(kernel, BENCHMARK_PINS, { timeoutMs: 500 })
    ).rejects.toThrow(/no answer within 0.5 s/);
    await busy.done;
  });
});
