/**
 * Choosing the kernel environment: every preference against every set of
 * kernelspecs a server may have, the markers that name an environment, and
 * kernelspecs that try to pass for ours.
 */
import {
  chooseEnvironment,
  environmentKernel,
  fallbackNote,
  isEnvironmentPreference,
  specEnvironment
} from '../../src/kernel/environment';
import type {
  EnvironmentPreference,
  IKernelSpecLike,
  IKernelSpecsLike,
  KernelEnvironment
} from '../../src/kernel/environment';

/** The container kernelspec as `install --container` writes it. */
const CONTAINER: IKernelSpecLike = {
  name: 'junobench-container',
  env: { JUNOBENCH_ENVIRONMENT: 'container' },
  metadata: {
    junobench: {
      environment: 'container',
      image: 'junobench:latest',
      image_id: 'f041856032d3'
    }
  }
};

/** The pinned kernelspec as `install` writes it. */
const PINNED: IKernelSpecLike = {
  name: 'junobench',
  env: { JUNOBENCH_ENVIRONMENT: 'pinned' },
  metadata: { junobench: { environment: 'pinned' } }
};

/** A pinned kernelspec from before the markers. */
const OLD_PINNED: IKernelSpecLike = { name: 'junobench', metadata: {} };

/** The server's own Python. */
const PYTHON3: IKernelSpecLike = { name: 'python3', env: {}, metadata: {} };

/** The server's kernelspecs, by name, with python3 the default. */
function server(...specs: IKernelSpecLike[]): IKernelSpecsLike {
  return {
    default: 'python3',
    kernelspecs: Object.fromEntries([PYTHON3, ...specs].map(s => [s.name, s]))
  };
}

type Row = [
  EnvironmentPreference,
  string,
  IKernelSpecsLike,
  KernelEnvironment,
  string | undefined,
  boolean
];

describe('chooseEnvironment', () => {
  const all = server(CONTAINER, PINNED);
  const containerOnly = server(CONTAINER);
  const pinnedOnly = server(PINNED);
  const oldPinned = server(OLD_PINNED);
  const plain = server();
  it.each<Row>([
    ['auto', 'all three', all, 'container', 'junobench-container', false],
    [
      'auto',
      'container only',
      containerOnly,
      'container',
      'junobench-container',
      false
    ],
    ['auto', 'pinned only', pinnedOnly, 'pinned', 'junobench', false],
    ['auto', 'an unmarked junobench', oldPinned, 'pinned', 'junobench', false],
    ['auto', 'python3 only', plain, 'server', undefined, false],
    ['container', 'all three', all, 'container', 'junobench-container', false],
    [
      'container',
      'container only',
      containerOnly,
      'container',
      'junobench-container',
      false
    ],
    ['container', 'pinned only', pinnedOnly, 'pinned', 'junobench', true],
    ['container', 'python3 only', plain, 'server', undefined, true],
    ['pinned', 'all three', all, 'pinned', 'junobench', false],
    ['pinned', 'container only', containerOnly, 'server', undefined, true],
    ['pinned', 'pinned only', pinnedOnly, 'pinned', 'junobench', false],
    [
      'pinned',
      'an unmarked junobench',
      oldPinned,
      'pinned',
      'junobench',
      false
    ],
    ['pinned', 'python3 only', plain, 'server', undefined, true],
    ['server', 'all three', all, 'server', undefined, false],
    ['server', 'container only', containerOnly, 'server', undefined, false],
    ['server', 'python3 only', plain, 'server', undefined, false]
  ])(
    '%s with %s: %s (kernel %s, fell back %s)',
    (preference, _what, specs, environment, kernel, fellBack) => {
      expect(chooseEnvironment(specs, preference)).toEqual({
        wanted: preference,
        environment,
        kernel,
        fellBack
      });
    }
  );

  it.each([null, undefined, {}, { kernelspecs: null }])(
    'takes the server’s Python when the kernelspecs are unknown (%j)',
    specs => {
      expect(chooseEnvironment(specs, 'container')).toMatchObject({
        environment: 'server',
        kernel: undefined,
        fellBack: true
      });
      expect(chooseEnvironment(specs)).toMatchObject({
        environment: 'server',
        fellBack: false
      });
    }
  );

  it('finds a container kernelspec installed under another name by its marker', () => {
    const renamed = { ...CONTAINER, name: 'bench-box' };
    expect(chooseEnvironment(server(renamed, PINNED))).toMatchObject({
      environment: 'container',
      kernel: 'bench-box'
    });
  });

  it('prefers the default install name among several of one environment', () => {
    const other = { ...CONTAINER, name: 'a-container' };
    expect(environmentKernel(server(other, CONTAINER), 'container')).toBe(
      'junobench-container'
    );
    const another = { ...CONTAINER, name: 'b-container' };
    expect(environmentKernel(server(another, other), 'container')).toBe(
      'a-container'
    );
  });
});

describe('specEnvironment', () => {
  it.each<[string, IKernelSpecLike, KernelEnvironment]>([
    ['the container spec', CONTAINER, 'container'],
    ['the pinned spec', PINNED, 'pinned'],
    ['an unmarked spec named junobench', OLD_PINNED, 'pinned'],
    ['python3', PYTHON3, 'server'],
    [
      'a spec marked only in its metadata',
      { name: 'x', metadata: { junobench: { environment: 'container' } } },
      'container'
    ],
    [
      'a spec marked only in its environment variables',
      { name: 'x', env: { JUNOBENCH_ENVIRONMENT: 'pinned' } },
      'pinned'
    ],
    // Adversaries: names and markers that are not ours.
    [
      'a spec merely named junobench-container',
      { name: 'junobench-container' },
      'server'
    ],
    [
      'an unknown marker',
      { name: 'x', env: { JUNOBENCH_ENVIRONMENT: 'cloud' } },
      'server'
    ],
    [
      'a marker that is not a string',
      { name: 'x', metadata: { junobench: 'container' } },
      'server'
    ],
    [
      'null metadata and env',
      { name: 'x', env: null, metadata: null },
      'server'
    ]
  ])('%s runs in %s', (_what, spec, environment) => {
    expect(specEnvironment(spec)).toBe(environment);
  });
});

describe('isEnvironmentPreference', () => {
  it.each([
    ['auto', true],
    ['container', true],
    ['pinned', true],
    ['server', true],
    ['Container', false],
    ['', false],
    [null, false],
    [3, false]
  ])('%j: %s', (value, expected) => {
    expect(isEnvironmentPreference(value)).toBe(expected);
  });
});

describe('fallbackNote', () => {
  it('says what was absent and what is used instead', () => {
    expect(fallbackNote(chooseEnvironment(server(PINNED), 'container'))).toBe(
      'environment: no benchmark container kernel on this server; using the pinned junobench kernel'
    );
    expect(fallbackNote(chooseEnvironment(server(), 'pinned'))).toBe(
      "environment: no pinned junobench kernel on this server; using the server's Python"
    );
  });

  it('says nothing when the wanted environment is there or none was asked for', () => {
    expect(
      fallbackNote(chooseEnvironment(server(PINNED), 'pinned'))
    ).toBeNull();
    expect(fallbackNote(chooseEnvironment(server(), 'auto'))).toBeNull();
    expect(fallbackNote(chooseEnvironment(server(), 'server'))).toBeNull();
  });
});
