/**
 * Environment drift: how the libraries a kernel has differ from the
 * JunoBench container's pins. Pure logic, shared by the replay bar and
 * `junobench verify`.
 */
import { describeEnvironment } from './environment';
import type { KernelEnvironment } from './environment';

/** Which install a pinned library belongs to. */
export type PinGroup = 'minimal' | 'full' | 'other';

/** One pinned library of the benchmark container. */
export interface IPinnedLibrary {
  /** Distribution name as pinned in the container (`pip install` name). */
  name: string;
  /** The container's version. */
  pinned: string;
  /** `minimal` and `full` are installed by the junobench kernel; `other` only listed. */
  group: PinGroup;
  /** Distribution names that provide the library (default: `[name]`). */
  distributions?: string[];
  /** The closest local pin when it differs from the container's, and why. */
  local?: {
    /** The pip requirement installed locally (null: not installable here). */
    requirement: string | null;
    /** The version that requirement gives (null: none). */
    version: string | null;
    /** Why the local pin differs. */
    reason: string;
  };
}

/** The pins file (jupyterlab_junobench/pins.json). */
export interface IPins {
  /** Where the container pins come from. */
  source: { repository: string; commit: string; files: string[] };
  /** The container's Python and the local one. */
  python: { pinned: string; local: string; reason: string };
  /** Every pinned library. */
  libraries: IPinnedLibrary[];
}

/** The answer to `environmentQuestion`. */
export interface IEnvironmentProbe {
  /** Python version, e.g. `3.11.7`. */
  python: string;
  /** The kernel's `sys.prefix`. */
  prefix: string;
  /** The kernel's working directory. */
  cwd: string;
  /** Installed version per distribution name (null: not installed). */
  versions: Record<string, string | null>;
  /** The kernel's `JUNOBENCH_ENVIRONMENT` (null or absent: not one of our kernelspecs, or an older probe). */
  environment?: string | null;
  /** The kernel's `JUNOBENCH_IMAGE`, e.g. `junobench:latest@f041856032d3` (null or absent: none). */
  image?: string | null;
}

/** One difference from the pins. */
export interface IDrift {
  /** Library name (or `python`). */
  module: string;
  /** The container's version. */
  expected: string;
  /** The version found (null: not installed). */
  found: string | null;
  /** Whether the library is missing or at another version. */
  kind: 'version' | 'missing';
  /** Whether what was found is the documented local substitute (see docs/environment.md). */
  substitute: boolean;
}

/** The comparison of one kernel with the pins. */
export interface IDriftReport {
  /** Library differences, in pins order. */
  differences: IDrift[];
  /** The Python difference, or null when the minor version matches. */
  python: IDrift | null;
  /** Number of libraries compared. */
  checked: number;
  /** The kernel's `sys.prefix`. */
  prefix: string;
  /** The kernel's working directory. */
  cwd: string;
  /** Where the kernel ran, as its `JUNOBENCH_ENVIRONMENT` says (`server` when it says nothing). */
  environment: KernelEnvironment;
  /** The container image, e.g. `junobench:latest@f041856032d3` (null outside the container). */
  image: string | null;
  /** One line for people, e.g. `environment: 2 libraries differ ...`. */
  summary: string;
}

/** The groups compared by default: what the junobench kernel installs. */
export const DEFAULT_DRIFT_GROUPS: readonly PinGroup[] = ['minimal', 'full'];

/**
 * The libraries of the given groups, in pins order.
 */
export function pinnedLibraries(
  pins: IPins,
  groups: readonly PinGroup[] = DEFAULT_DRIFT_GROUPS
): IPinnedLibrary[] {
  return pins.libraries.filter(l => groups.includes(l.group));
}

/**
 * The distribution names to probe for the given groups (for `environmentQuestion`).
 */
export function probedDistributions(
  pins: IPins,
  groups: readonly PinGroup[] = DEFAULT_DRIFT_GROUPS
): string[] {
  const names = pinnedLibraries(pins, groups).flatMap(l =>
    Private.distributions(l)
  );
  return [...new Set(names)];
}

/**
 * Compare a probed kernel environment with the pins of the given groups.
 */
export function compareEnvironment(
  probe: IEnvironmentProbe,
  pins: IPins,
  groups: readonly PinGroup[] = DEFAULT_DRIFT_GROUPS
): IDriftReport {
  const libraries = pinnedLibraries(pins, groups);
  const differences: IDrift[] = [];
  for (const lib of libraries) {
    const found = Private.found(lib, probe.versions);
    if (found === null) {
      differences.push({
        module: lib.name,
        expected: lib.pinned,
        found: null,
        kind: 'missing',
        substitute: false
      });
    } else if (!sameVersion(found, lib.pinned)) {
      differences.push({
        module: lib.name,
        expected: lib.pinned,
        found,
        kind: 'version',
        substitute:
          !!lib.local?.version && sameVersion(found, lib.local.version)
      });
    }
  }
  const python: IDrift | null = sameVersion(probe.python, pins.python.pinned)
    ? null
    : {
        module: 'python',
        expected: pins.python.pinned,
        found: probe.python,
        kind: 'version',
        substitute: sameVersion(probe.python, pins.python.local)
      };
  const environment = probedEnvironment(probe);
  const report = {
    differences,
    python,
    checked: libraries.length,
    prefix: probe.prefix,
    cwd: probe.cwd,
    environment,
    image: environment === 'container' ? (probe.image ?? null) : null
  };
  return { ...report, summary: driftSummary(report) };
}

/**
 * Where a probed kernel ran: the environment its `JUNOBENCH_ENVIRONMENT`
 * names, else the server's Python (a kernel's prefix alone is no evidence).
 */
export function probedEnvironment(
  probe: Pick<IEnvironmentProbe, 'environment'>
): KernelEnvironment {
  return probe.environment === 'container' || probe.environment === 'pinned'
    ? probe.environment
    : 'server';
}

/**
 * One line saying where the kernel ran and which versions differ, e.g.
 * `environment: the server's Python; 2 libraries differ from the benchmark
 * pins: numpy 2.0.2 (pinned 1.26.4), torch not installed (pinned 2.3.1);
 * Python 3.11.7 (pinned 3.10)`.
 */
export function driftSummary(
  report: Pick<
    IDriftReport,
    'differences' | 'python' | 'checked' | 'environment' | 'image'
  >
): string {
  const n = report.differences.length;
  const where = describeEnvironment(report.environment, report.image);
  let line =
    n === 0
      ? `environment: ${where}; all ${report.checked} pinned libraries match the benchmark pins`
      : `environment: ${where}; ${n} ${n === 1 ? 'library differs' : 'libraries differ'} from the benchmark pins: ${report.differences.map(describeDrift).join(', ')}`;
  if (report.python) {
    line += `; ${describeDrift(report.python)}`;
  }
  return line;
}

/**
 * One difference for people: `numpy 2.0.2 (pinned 1.26.4)`,
 * `torch 2.13.0+cpu (pinned 2.3.1, local substitute)`, `keras not installed (pinned 3.4.1)`.
 */
export function describeDrift(d: IDrift): string {
  const name = d.module === 'python' ? 'Python' : d.module;
  const found = d.found === null ? 'not installed' : d.found;
  const note = d.substitute ? ', local substitute' : '';
  return `${name} ${found} (pinned ${d.expected}${note})`;
}

/**
 * Whether an installed version satisfies a pin: the same release, ignoring a
 * local label such as `+cpu`; a pin with fewer parts (`3.10`) matches any
 * version that starts with it (`3.10.14`).
 */
export function sameVersion(found: string, pinned: string): boolean {
  const a = Private.release(found);
  const b = Private.release(pinned);
  if (a.length < b.length) {
    return false;
  }
  return b.every((part, i) => part === a[i]);
}

/**
 * Read the answer to `environmentQuestion`: an object with `python`, `prefix`,
 * `cwd` and `versions`, and `environment` and `image` when the kernel is new
 * enough to say (strings or null); throws saying what is wrong.
 */
export function readProbe(value: unknown): IEnvironmentProbe {
  if (Private.isProbe(value)) {
    return value;
  }
  throw new Error(
    `The environment probe gave no usable answer (got ${JSON.stringify(value)?.slice(0, 200)}).`
  );
}

namespace Private {
  /**
   * The distributions that provide a library.
   */
  export function distributions(lib: IPinnedLibrary): string[] {
    return lib.distributions?.length ? lib.distributions : [lib.name];
  }

  /**
   * The first installed version among a library's distributions.
   */
  export function found(
    lib: IPinnedLibrary,
    versions: Record<string, string | null>
  ): string | null {
    for (const name of distributions(lib)) {
      const v = versions[name];
      if (typeof v === 'string' && v) {
        return v;
      }
    }
    return null;
  }

  /**
   * The dotted parts of a version without its local label (`2.3.1+cpu` → 2, 3, 1).
   */
  export function release(version: string): string[] {
    return version.trim().split('+')[0].split('.');
  }

  /**
   * Whether a parsed value has the probe's shape.
   */
  export function isProbe(value: unknown): value is IEnvironmentProbe {
    if (!value || typeof value !== 'object') {
      return false;
    }
    const v = value as Record<string, unknown>;
    return (
      typeof v.python === 'string' &&
      typeof v.prefix === 'string' &&
      typeof v.cwd === 'string' &&
      [v.environment, v.image].every(
        x => x === undefined || x === null || typeof x === 'string'
      ) &&
      !!v.versions &&
      typeof v.versions === 'object' &&
      Object.values(v.versions as object).every(
        x => x === null || typeof x === 'string'
      )
    );
  }
}
