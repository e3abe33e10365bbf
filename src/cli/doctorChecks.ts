/**
 * `junobench doctor`'s judgement: from the facts the Python side reports
 * (`python -m jupyterlab_junobench.doctor`) and the casebooks found here, one
 * check per thing a newcomer needs, each with what to run when it is not
 * right. Pure: no process, no file system.
 */
import type { ICase, ICasebook } from '../casebook/types';
import { runnability } from '../casebook/runnable';
import type { MissingPart } from '../casebook/runnable';

/** A library whose version is not the one wanted (`found: null`: not installed). */
export interface IDrift {
  /** The library's name in pins.json. */
  name: string;
  /** The version installed, or null. */
  found: string | null;
  /** The pin it is compared with. */
  wanted: string;
}

/** An engine's refusal that the Python side recognised (`container.recognise_refusal`). */
export interface IRefusal {
  /** `rlimit`, `cgroups`, `storage`, `runtime`, `user-namespace`, `no-daemon` or `permission`. */
  code: string;
  /** What the refusal means, in one clause. */
  meaning: string;
  /** What to set or run. */
  fix: string;
}

/** One try at starting a container of the JunoBench image. */
export interface IContainerAttempt {
  /** Whose engine settings: the container kernelspec's, the shell's, or scripts/container-env.sh's. */
  settings: 'kernelspec' | 'current' | 'container-env';
  /** The image tried. */
  image: string;
  /** The engine variables it ran with. */
  env: Record<string, string>;
  /** Whether a container started and answered. */
  started: boolean;
  /** The image is not in this storage. */
  absent?: boolean;
  /** The engine's error, when it did not start. */
  error?: string;
  /** The refusal recognised in that error. */
  refusal?: IRefusal | null;
  /** The image's pins group (`minimal` or `full`). */
  pins?: string;
  /** The Python inside the image. */
  python?: string;
  /** The benchmark container's Python (`3.10`). */
  benchmarkPython?: string;
  /** The image's libraries that differ from the benchmark container's pins. */
  benchmarkDrift?: IDrift[];
  /** How long the try took. */
  seconds: number;
}

/** What `python -m jupyterlab_junobench.doctor` prints. */
export interface IPythonFacts {
  /** The interpreter that ran it. */
  python: { executable: string; version: string };
  /** The server extension and the prebuilt labextension. */
  serverExtension: {
    enabled: boolean;
    labextension: { path: string; version: string } | null;
    version: string;
  };
  /** The kernelspec names Jupyter finds. */
  kernelspecs: string[];
  /** Why the kernelspecs could not be listed, if they could not. */
  kernelspecError: string | null;
  /** The pinned kernel's environment. */
  pinned: {
    kernelspec: string | null;
    venv: string | null;
    pins?: string;
    error?: string;
    python?: string;
    localDrift?: IDrift[];
    benchmarkDrift?: IDrift[];
  };
  /** The container kernelspec, the engine and the container starts. */
  container: {
    kernelspec: { name: string; image?: string; engine?: string } | null;
    engine: string | null;
    containerEnv: Record<string, string> | null;
    attempts: IContainerAttempt[];
  };
  /** The bundled demo casebook's folder. */
  demoCasebook: string | null;
}

/** What the doctor needs of one casebook. */
export interface ICasebookFacts {
  /** The folder as given. */
  dir: string;
  /** Its name. */
  name: string;
  /** How many cases its descriptor lists. */
  cases: number;
  /** The cases that can run here. */
  runnable: string[];
  /** The cases that cannot, with what their folder misses. */
  blocked: { name: string; missing: MissingPart[] }[];
  /** Runnable cases without a reference fix (they replay; a repair cannot be checked). */
  noFix: string[];
  /** Cases whose folder is here without the input data of the datasets its descriptor credits. */
  missingData: {
    name: string;
    datasets: { title: string; license: string; url: string }[];
  }[];
  /** Load problems (`severity: message`). */
  problems: string[];
}

/** The casebook could not be read at all. */
export interface IUnreadableCasebook {
  /** The folder as given. */
  dir: string;
  /** Why. */
  error: string;
}

/** One finding of the doctor. */
export interface IDoctorCheck {
  /** A stable id (`server-extension`, `pinned-kernel`, `casebook:<dir>`, ...). */
  id: string;
  /** What was checked, in a few words. */
  title: string;
  /** `ok`, `warn` (works, with less), `fail` (does not work). */
  status: 'ok' | 'warn' | 'fail';
  /** What was found, one line each. */
  details: string[];
  /** The command that fixes it, or null when nothing needs fixing. */
  fix: string | null;
}

/** What the doctor knows: Python's facts (or why it could not get them) and the casebooks. */
export interface IDoctorFacts {
  /** The Python side's facts, or null. */
  python: IPythonFacts | null;
  /** Why the Python side did not answer. */
  pythonError?: string;
  /** The casebooks looked at. */
  casebooks: (ICasebookFacts | IUnreadableCasebook)[];
}

/** What to run when the package's Python is missing. */
export const SETUP_FIX =
  'bash scripts/setup.sh && . .venv/bin/activate (or pass --python PYTHON)';
const PINNED_FIX = 'python -m jupyterlab_junobench.kernel install --minimal';
const ENV_FIX = '. scripts/container-env.sh';

/**
 * What the doctor needs of a loaded casebook.
 */
export function casebookFacts(dir: string, book: ICasebook): ICasebookFacts {
  const facts: ICasebookFacts = {
    dir,
    name: book.name,
    cases: book.cases.length,
    runnable: [],
    blocked: [],
    noFix: [],
    missingData: [],
    problems: book.problems.map(p => `${p.severity}: ${p.message}`)
  };
  for (const c of book.cases) {
    const { runnable, missing } = runnability(c);
    if (runnable) {
      facts.runnable.push(c.name);
    } else {
      facts.blocked.push({ name: c.name, missing });
    }
    if (runnable && missing.includes('fixed')) {
      facts.noFix.push(c.name);
    }
    if (missing.includes('data')) {
      facts.missingData.push(Private.datasets(c));
    }
  }
  facts.missingData = facts.missingData.filter(m => m.datasets.length > 0);
  return facts;
}

/**
 * The doctor's checks, in the order a newcomer meets them.
 */
export function doctorChecks(facts: IDoctorFacts): IDoctorCheck[] {
  const checks: IDoctorCheck[] = [];
  const py = facts.python;
  if (py === null) {
    checks.push({
      id: 'python',
      title: 'the jupyterlab_junobench Python package',
      status: 'fail',
      details: [facts.pythonError ?? 'the Python side did not answer'],
      fix: SETUP_FIX
    });
  } else {
    checks.push(
      Private.serverExtension(py),
      Private.pinnedKernel(py),
      Private.engine(py),
      Private.containerKernel(py)
    );
  }
  for (const book of facts.casebooks) {
    checks.push(Private.casebook(book));
  }
  checks.push(Private.missingDatasets(facts.casebooks));
  return checks;
}

/**
 * The exit code: 1 when something does not work, else 0.
 */
export function doctorExitCode(checks: readonly IDoctorCheck[]): number {
  return checks.some(c => c.status === 'fail') ? 1 : 0;
}

/**
 * The checks as text for a terminal.
 */
export function renderDoctor(
  checks: readonly IDoctorCheck[],
  seconds: number
): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.status.padEnd(4)}  ${c.title}`);
    for (const d of c.details) {
      lines.push(`      ${d}`);
    }
    if (c.fix) {
      lines.push(`      to fix: ${c.fix}`);
    }
  }
  const count = (s: IDoctorCheck['status']) =>
    checks.filter(c => c.status === s).length;
  lines.push(
    `${count('ok')} ok, ${count('warn')} to improve, ${count('fail')} not working (${seconds.toFixed(1)} s)`
  );
  return lines.join('\n');
}

namespace Private {
  /** How many names a line lists before "and N more". */
  export const FEW = 6;

  /** `a, b, c and 4 more`. */
  export function few(names: string[]): string {
    const shown = names.slice(0, FEW).join(', ');
    return names.length > FEW
      ? `${shown} and ${names.length - FEW} more`
      : shown;
  }

  /** A `--cases` value: all the names, or the first few and an ellipsis to edit. */
  export function fewArg(names: string[]): string {
    return names.length > FEW
      ? `${names.slice(0, FEW).join(',')},…  (the cases you want; ${names.length} lack theirs)`
      : names.join(',');
  }

  /** A case's datasets, for the missing-data list. */
  export function datasets(c: ICase): ICasebookFacts['missingData'][number] {
    return {
      name: c.name,
      datasets: c.datasets.map(d => ({
        title: d.title,
        license: d.license,
        url: d.url
      }))
    };
  }

  /** Drift as lines: `numpy 1.26.0 (wanted 1.26.4)`. */
  export function driftLines(
    drift: IDrift[] | undefined,
    pin: string
  ): string[] {
    return (drift ?? []).map(
      d => `${d.name} ${d.found ?? 'not installed'} (${pin} ${d.wanted})`
    );
  }

  /** A shell assignment of an engine's settings. */
  export function envText(env: Record<string, string>): string {
    const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    return pairs.length ? pairs.join(' ') : 'no engine settings';
  }

  export function serverExtension(py: IPythonFacts): IDoctorCheck {
    const s = py.serverExtension;
    const details = [
      `jupyterlab_junobench ${s.version} in ${py.python.executable} (Python ${py.python.version})`,
      s.enabled
        ? 'server extension enabled'
        : 'server extension not enabled: the panel cannot list casebooks, copy the demo or write cases',
      s.labextension
        ? `labextension ${s.labextension.version} in ${s.labextension.path}`
        : 'no labextension where JupyterLab looks: the panel does not appear'
    ];
    const ok = s.enabled && s.labextension !== null;
    return {
      id: 'server-extension',
      title: 'the server extension and the labextension',
      status: ok ? 'ok' : 'fail',
      details,
      fix: ok
        ? null
        : s.labextension
          ? 'jupyter server extension enable jupyterlab_junobench --sys-prefix'
          : 'bash scripts/setup.sh'
    };
  }

  export function pinnedKernel(py: IPythonFacts): IDoctorCheck {
    const p = py.pinned;
    const base = { id: 'pinned-kernel', title: 'the pinned junobench kernel' };
    if (py.kernelspecError) {
      return {
        ...base,
        status: 'fail',
        details: [`Jupyter cannot list its kernelspecs: ${py.kernelspecError}`],
        fix: 'jupyter kernelspec list  (then remove or repair the kernelspec it names)'
      };
    }
    if (p.venv === null) {
      return {
        ...base,
        status: 'warn',
        details: [
          "not installed: cases run in the server's Python, whose libraries may crash differently from the benchmark's"
        ],
        fix: PINNED_FIX
      };
    }
    if (p.error || p.kernelspec === null) {
      return {
        ...base,
        status: 'fail',
        details: [
          p.error
            ? `its environment ${p.venv} does not answer: ${p.error}`
            : `the environment ${p.venv} exists but no kernelspec names it`
        ],
        fix: PINNED_FIX
      };
    }
    const local = driftLines(p.localDrift, 'local pin');
    const bench = driftLines(p.benchmarkDrift, 'benchmark');
    return {
      ...base,
      status: local.length ? 'warn' : 'ok',
      details: [
        `kernelspec ${p.kernelspec}: Python ${p.python} in ${p.venv} (${p.pins ?? 'minimal'} pins)`,
        local.length
          ? `${local.length} librar${local.length === 1 ? 'y differs' : 'ies differ'} from the local pins: ${local.join(', ')}`
          : 'every library at its local pin',
        bench.length
          ? `differs from the benchmark container in: ${bench.join(', ')} (docs: environment)`
          : 'same library versions as the benchmark container'
      ],
      fix: local.length ? PINNED_FIX : null
    };
  }

  export function engine(py: IPythonFacts): IDoctorCheck {
    const c = py.container;
    const base = {
      id: 'container-engine',
      title: 'a container engine that starts a container'
    };
    if (c.engine === null) {
      return {
        ...base,
        status: 'warn',
        details: [
          'no podman or docker on PATH: cases run without the benchmark container'
        ],
        fix: 'sudo apt-get install -y podman runc mmdebstrap'
      };
    }
    const [first, second] = c.attempts;
    const said = (a: IContainerAttempt) =>
      a.started
        ? `${c.engine} started ${a.image} in ${a.seconds.toFixed(1)} s with ${envText(a.env)}`
        : a.absent
          ? `${c.engine} has no image ${a.image} with ${envText(a.env)}`
          : `${c.engine} could not start ${a.image} with ${envText(a.env)}: ${a.refusal?.meaning ?? a.error}`;
    const details = c.attempts.map(said);
    if (first?.started) {
      return { ...base, status: 'ok', details, fix: null };
    }
    if (second?.started) {
      return {
        ...base,
        status: 'warn',
        details: [
          ...details,
          'this machine needs the settings of scripts/container-env.sh (deploy/podman/): source it before the container commands'
        ],
        fix: `${ENV_FIX}  (sets ${envText(second.env)})`
      };
    }
    const refused = c.attempts.find(a => a.refusal);
    if (refused?.refusal) {
      return { ...base, status: 'fail', details, fix: refused.refusal.fix };
    }
    if (c.attempts.every(a => a.absent)) {
      return {
        ...base,
        status: 'warn',
        details,
        fix: `${ENV_FIX} && python -m jupyterlab_junobench.container build --minimal`
      };
    }
    return {
      ...base,
      status: 'fail',
      details,
      fix: `${ENV_FIX} && python -m jupyterlab_junobench.container status`
    };
  }

  export function containerKernel(py: IPythonFacts): IDoctorCheck {
    const c = py.container;
    const base = { id: 'container-kernel', title: 'the container kernel' };
    const started = c.attempts.find(a => a.started);
    const bench = driftLines(started?.benchmarkDrift, 'benchmark');
    const wanted = started?.benchmarkPython;
    if (wanted && !started?.python?.startsWith(`${wanted}.`)) {
      bench.unshift(`Python ${started?.python} (benchmark ${wanted})`);
    }
    const image = started
      ? [
          `image ${started.image}: Python ${started.python}, ${started.pins ?? 'full'} pins; ${
            bench.length
              ? `differs from the benchmark container in: ${bench.join(', ')}`
              : 'same library versions as the benchmark container'
          }`
        ]
      : [];
    if (c.kernelspec === null) {
      return {
        ...base,
        status: 'warn',
        details: [
          'no container kernelspec: cases cannot run in the benchmark container',
          ...image
        ],
        fix: `${ENV_FIX} && python -m jupyterlab_junobench.kernel install --container`
      };
    }
    const own = c.attempts[0];
    const works = own?.settings === 'kernelspec' && own.started;
    return {
      ...base,
      status: works ? 'ok' : 'fail',
      details: [
        `kernelspec ${c.kernelspec.name}: image ${c.kernelspec.image ?? '?'} on ${c.kernelspec.engine ?? 'podman'}`,
        ...(works
          ? image
          : [
              "its image does not start with the kernelspec's own engine settings"
            ])
      ],
      fix: works
        ? null
        : `${ENV_FIX} && python -m jupyterlab_junobench.container build --minimal && python -m jupyterlab_junobench.kernel install --container`
    };
  }

  export function casebook(
    book: ICasebookFacts | IUnreadableCasebook
  ): IDoctorCheck {
    const id = `casebook:${book.dir}`;
    if ('error' in book) {
      return {
        id,
        title: `the casebook ${book.dir}`,
        status: 'fail',
        details: [book.error],
        fix: `junobench fetch ${book.dir}  (or point at a folder with benchmark_desc.xlsx)`
      };
    }
    // Cases grouped by what they miss: a sparse copy of 111 cases lacks 100 folders.
    const groups = new Map<string, string[]>();
    for (const b of book.blocked) {
      const key = `no ${b.missing.join(', no ')}`;
      groups.set(key, [...(groups.get(key) ?? []), b.name]);
    }
    const details = [
      `${book.cases} case(s), ${book.runnable.length} can run here`,
      ...[...groups].map(
        ([why, names]) => `${names.length} cannot run (${why}): ${few(names)}`
      ),
      ...(book.noFix.length
        ? [
            `no reference fix (a repair cannot be checked): ${book.noFix.join(', ')}`
          ]
        : []),
      ...book.problems
    ];
    const folders = book.blocked.filter(b => b.missing.includes('folder'));
    return {
      id,
      title: `the casebook ${book.dir}`,
      status:
        book.runnable.length === 0
          ? 'fail'
          : book.blocked.length || book.problems.length
            ? 'warn'
            : 'ok',
      details,
      fix: folders.length
        ? `junobench fetch ${book.dir} --cases ${fewArg(folders.map(b => b.name))}`
        : null
    };
  }

  export function missingDatasets(
    books: (ICasebookFacts | IUnreadableCasebook)[]
  ): IDoctorCheck {
    const details: string[] = [];
    const fixes: string[] = [];
    for (const book of books) {
      if ('error' in book || !book.missingData.length) {
        continue;
      }
      const shown = book.missingData.slice(0, FEW);
      for (const m of shown) {
        for (const d of m.datasets) {
          details.push(
            `${book.name}/${m.name}: ${d.title} (${d.license}) ${d.url}`
          );
        }
      }
      if (book.missingData.length > shown.length) {
        details.push(
          `and the datasets of ${book.missingData.length - shown.length} more case(s) of ${book.name} (all in --json)`
        );
      }
      fixes.push(
        `junobench fetch ${book.dir} --cases ${fewArg(book.missingData.map(m => m.name))}`
      );
      details.push(
        "(the dataset's own copy brings each case's data; else download it from the URL into the case's data/ folder)"
      );
    }
    return {
      id: 'datasets',
      title: 'the datasets the cases read',
      status: details.length ? 'warn' : 'ok',
      details: details.length
        ? details
        : ['every case folder has the input data its descriptor credits'],
      fix: fixes.length ? fixes.join(' && ') : null
    };
  }
}
