/**
 * Which kernel environment a case runs in: the benchmark container, the
 * pinned `junobench` kernel or the server's own Python. Pure logic over the
 * server's kernelspecs, shared by the case opener and the command line.
 */

/** Where a kernel runs, best first. */
export type KernelEnvironment = 'container' | 'pinned' | 'server';

/** The `environment` setting and `--environment` option: a place, or the best present. */
export type EnvironmentPreference = 'auto' | KernelEnvironment;

/** The environments, best first. */
export const KERNEL_ENVIRONMENTS: readonly KernelEnvironment[] = [
  'container',
  'pinned',
  'server'
];

/** The values of the `environment` setting and of `--environment`. */
export const ENVIRONMENT_PREFERENCES: readonly EnvironmentPreference[] = [
  'auto',
  ...KERNEL_ENVIRONMENTS
];

/** The kernelspec names `python -m jupyterlab_junobench.kernel install` gives by default. */
export const ENVIRONMENT_KERNELS: Readonly<
  Record<Exclude<KernelEnvironment, 'server'>, string>
> = {
  container: 'junobench-container',
  pinned: 'junobench'
};

/** What the chooser needs of a kernelspec (a `KernelSpec.ISpecModel` fits). */
export interface IKernelSpecLike {
  /** The kernelspec name. */
  name: string;
  /** Environment variables the kernel starts with. */
  env?: { [key: string]: unknown } | null;
  /** The kernelspec's metadata (`metadata.junobench.environment` marks ours). */
  metadata?: { [key: string]: unknown } | null;
}

/** What the chooser needs of the server's kernelspecs (`KernelSpec.ISpecModels` fits). */
export interface IKernelSpecsLike {
  /** The server's default kernelspec name. */
  default?: string;
  /** The kernelspecs by name. */
  kernelspecs?: { [name: string]: IKernelSpecLike | undefined } | null;
}

/** The chooser's answer. */
export interface IEnvironmentChoice {
  /** The environment asked for. */
  wanted: EnvironmentPreference;
  /** The environment chosen. */
  environment: KernelEnvironment;
  /** Its kernelspec name (undefined for `server`: the notebook's own or the default kernel). */
  kernel: string | undefined;
  /** Whether an explicit preference was absent and a lesser environment was taken. */
  fellBack: boolean;
}

/**
 * Whether a string names an environment preference.
 */
export function isEnvironmentPreference(
  value: unknown
): value is EnvironmentPreference {
  return (
    typeof value === 'string' &&
    (ENVIRONMENT_PREFERENCES as readonly string[]).includes(value)
  );
}

/**
 * The environment a kernelspec runs in: its `metadata.junobench.environment`,
 * else its `JUNOBENCH_ENVIRONMENT` variable, else `pinned` for a spec named
 * `junobench` (older installs carry no marker), else `server`.
 */
export function specEnvironment(spec: IKernelSpecLike): KernelEnvironment {
  const meta = spec.metadata?.junobench;
  const marked =
    meta && typeof meta === 'object'
      ? (meta as { environment?: unknown }).environment
      : undefined;
  for (const value of [marked, spec.env?.JUNOBENCH_ENVIRONMENT]) {
    if (value === 'container' || value === 'pinned') {
      return value;
    }
  }
  return spec.name === ENVIRONMENT_KERNELS.pinned ? 'pinned' : 'server';
}

/**
 * The kernelspec of an environment among the server's, or undefined; of
 * several, the one with the default install name, else the first by name.
 */
export function environmentKernel(
  specs: IKernelSpecsLike | null | undefined,
  environment: Exclude<KernelEnvironment, 'server'>
): string | undefined {
  const names = Object.entries(specs?.kernelspecs ?? {})
    .filter(
      ([name, spec]) =>
        specEnvironment({ ...(spec ?? {}), name }) === environment
    )
    .map(([name]) => name)
    .sort();
  const preferred = ENVIRONMENT_KERNELS[environment];
  return names.includes(preferred) ? preferred : names[0];
}

/**
 * Choose the kernel environment: `auto` takes the best present (container,
 * then the pinned kernel, then the server's Python); an explicit preference
 * whose kernel the server lacks falls back to the next best present below it
 * (the server's Python always is).
 */
export function chooseEnvironment(
  specs: IKernelSpecsLike | null | undefined,
  preference: EnvironmentPreference = 'auto'
): IEnvironmentChoice {
  const order =
    preference === 'auto'
      ? KERNEL_ENVIRONMENTS
      : KERNEL_ENVIRONMENTS.slice(KERNEL_ENVIRONMENTS.indexOf(preference));
  for (const environment of order) {
    const kernel =
      environment === 'server'
        ? undefined
        : environmentKernel(specs, environment);
    if (kernel) {
      return {
        wanted: preference,
        environment,
        kernel,
        fellBack: preference !== 'auto' && environment !== preference
      };
    }
  }
  return {
    wanted: preference,
    environment: 'server',
    kernel: undefined,
    fellBack: preference !== 'auto' && preference !== 'server'
  };
}

/**
 * Where a kernel ran, for people (English, for the command line), e.g.
 * `the benchmark container (image junobench:latest@f041856032d3)`.
 */
export function describeEnvironment(
  environment: KernelEnvironment,
  image: string | null = null
): string {
  switch (environment) {
    case 'container':
      return image
        ? `the benchmark container (image ${image})`
        : 'the benchmark container';
    case 'pinned':
      return 'the pinned junobench kernel';
    case 'server':
      return "the server's Python";
  }
}

/**
 * One line for the command line when an explicit environment was absent,
 * e.g. `environment: no benchmark container kernel on this server; using the
 * pinned junobench kernel`; null when nothing fell back.
 */
export function fallbackNote(choice: IEnvironmentChoice): string | null {
  if (!choice.fellBack) {
    return null;
  }
  const absent =
    choice.wanted === 'container'
      ? 'no benchmark container kernel'
      : 'no pinned junobench kernel';
  return `environment: ${absent} on this server; using ${describeEnvironment(choice.environment)}`;
}
