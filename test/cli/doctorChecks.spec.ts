/**
 * `junobench doctor`'s judgement of the facts, and `<command> --help`. Pure.
 */
import type { ICase, ICasebook } from '../../src/casebook/types';
import {
  casebookFacts,
  doctorChecks,
  doctorExitCode,
  renderDoctor
} from '../../src/cli/doctorChecks';
import type {
  IContainerAttempt,
  IDoctorCheck,
  IPythonFacts
} from '../../src/cli/doctorChecks';
import { commandHelp } from '../../src/cli/help';
import { caseRecord, presentFiles } from '../casebook/fixtures';

const ENV = {
  CONTAINERS_CONF: '/r/deploy/podman/containers.conf',
  CONTAINERS_STORAGE_CONF: '/r/deploy/podman/storage-overlay.conf'
};

function attempt(fields: Partial<IContainerAttempt>): IContainerAttempt {
  return {
    settings: 'current',
    image: 'junobench:latest',
    env: {},
    started: false,
    seconds: 0.2,
    ...fields
  };
}

const KERNELSPEC = {
  name: 'junobench-container',
  image: 'junobench:latest'
};

function podman(
  attempts: IContainerAttempt[],
  kernelspec: IPythonFacts['container']['kernelspec'] = null
): IPythonFacts['container'] {
  return { kernelspec, engine: 'podman', containerEnv: ENV, attempts };
}

function facts(fields: Partial<IPythonFacts> = {}): IPythonFacts {
  return {
    python: { executable: '/v/bin/python', version: '3.11.7' },
    serverExtension: {
      enabled: true,
      labextension: {
        path: '/v/share/jupyter/labextensions/x',
        version: '0.1.0'
      },
      version: '0.1.0'
    },
    kernelspecs: ['python3'],
    kernelspecError: null,
    pinned: {
      kernelspec: 'junobench',
      venv: '/v/junobench',
      pins: 'minimal',
      python: '3.11.7',
      localDrift: [],
      benchmarkDrift: []
    },
    container: podman([
      attempt({
        started: true,
        python: '3.10.12',
        benchmarkPython: '3.10',
        benchmarkDrift: []
      })
    ]),
    demoCasebook: '/r/demo/casebook',
    ...fields
  };
}

function check(id: string, python: IPythonFacts): IDoctorCheck {
  const found = doctorChecks({ python, casebooks: [] }).find(c => c.id === id);
  if (!found) {
    throw new Error(`no check ${id}`);
  }
  return found;
}

const present = (name: string, data: string[], fixed = true): ICase =>
  caseRecord(name, {
    datasets: [
      { title: `${name} data`, license: 'CC0', url: `https://x/${name}` }
    ],
    files: presentFiles(name, fixed, data)
  });

describe('doctorChecks', () => {
  it.each<
    [
      string,
      string,
      Partial<IPythonFacts>,
      IDoctorCheck['status'],
      RegExp | null
    ]
  >([
    ['server-extension', 'enabled with its labextension', {}, 'ok', null],
    [
      'server-extension',
      'not enabled',
      {
        serverExtension: {
          enabled: false,
          labextension: { path: '/x', version: '0.1.0' },
          version: '0.1.0'
        }
      },
      'fail',
      /jupyter server extension enable jupyterlab_junobench/
    ],
    [
      'server-extension',
      'no labextension',
      {
        serverExtension: { enabled: true, labextension: null, version: '0.1.0' }
      },
      'fail',
      /scripts\/setup\.sh/
    ],
    ['pinned-kernel', 'at its pins', {}, 'ok', null],
    [
      'pinned-kernel',
      'not installed',
      { pinned: { kernelspec: null, venv: null } },
      'warn',
      /kernel install --minimal/
    ],
    [
      'pinned-kernel',
      'drifted from its local pins',
      {
        pinned: {
          kernelspec: 'junobench',
          venv: '/v',
          python: '3.11.7',
          localDrift: [{ name: 'pandas', found: '2.2.0', wanted: '2.1.4' }],
          benchmarkDrift: []
        }
      },
      'warn',
      /kernel install --minimal/
    ],
    [
      'pinned-kernel',
      'an environment that does not answer',
      { pinned: { kernelspec: 'junobench', venv: '/v', error: 'no python' } },
      'fail',
      /kernel install --minimal/
    ],
    [
      'pinned-kernel',
      'kernelspecs that cannot be listed',
      { kernelspecError: 'kernel.json: Expecting value' },
      'fail',
      /jupyter kernelspec list/
    ],
    ['container-engine', 'starts a container', {}, 'ok', null],
    [
      'container-engine',
      'no engine',
      {
        container: {
          kernelspec: null,
          engine: null,
          containerEnv: null,
          attempts: []
        }
      },
      'warn',
      /apt-get install -y podman/
    ],
    [
      'container-engine',
      "starts only with container-env.sh's settings",
      {
        container: podman([
          attempt({ absent: true }),
          attempt({ settings: 'container-env', env: ENV, started: true })
        ])
      },
      'warn',
      /^\. scripts\/container-env\.sh .*CONTAINERS_CONF=/
    ],
    [
      'container-engine',
      'refused everywhere',
      {
        container: podman([
          attempt({
            error: 'error setting rlimit type 7',
            refusal: {
              code: 'rlimit',
              meaning: 'no ulimits',
              fix: 'source it'
            }
          }),
          attempt({ settings: 'container-env', env: ENV, absent: true })
        ])
      },
      'fail',
      /^source it$/
    ],
    [
      'container-engine',
      'no image anywhere',
      {
        container: podman([
          attempt({ absent: true }),
          attempt({ settings: 'container-env', env: ENV, absent: true })
        ])
      },
      'warn',
      /container build --minimal/
    ],
    [
      'container-kernel',
      'no kernelspec',
      {},
      'warn',
      /kernel install --container/
    ],
    [
      'container-kernel',
      'a kernelspec whose image starts',
      {
        container: podman(
          [attempt({ settings: 'kernelspec', env: ENV, started: true })],
          KERNELSPEC
        )
      },
      'ok',
      null
    ],
    [
      'container-kernel',
      'a kernelspec whose image does not start',
      {
        container: podman(
          [attempt({ settings: 'kernelspec', env: ENV, absent: true })],
          KERNELSPEC
        )
      },
      'fail',
      /kernel install --container/
    ]
  ])('%s: %s', (id, _what, fields, status, fix) => {
    const c = check(id, facts(fields));
    expect(c.status).toBe(status);
    if (fix) {
      expect(c.fix).toMatch(fix);
    } else {
      expect(c.fix).toBeNull();
    }
  });

  it("names the image's drift from the benchmark, its Python included", () => {
    const c = check(
      'container-kernel',
      facts({
        container: podman([
          attempt({
            started: true,
            python: '3.11.2',
            benchmarkPython: '3.10',
            benchmarkDrift: [
              { name: 'tensorflow', found: null, wanted: '2.17.0' }
            ]
          })
        ])
      })
    );
    expect(c.details.join('\n')).toContain(
      'Python 3.11.2 (benchmark 3.10), tensorflow not installed (benchmark 2.17.0)'
    );
  });

  it('fails on one thing only when the Python side does not answer, with the set-up to run', () => {
    const checks = doctorChecks({
      python: null,
      pythonError: 'python3 -m jupyterlab_junobench.doctor did not answer',
      casebooks: []
    });
    expect(checks.map(c => [c.id, c.status])).toEqual([
      ['python', 'fail'],
      ['datasets', 'ok']
    ]);
    expect(checks[0].fix).toMatch(/scripts\/setup\.sh/);
    expect(doctorExitCode(checks)).toBe(1);
  });
});

describe('casebookFacts', () => {
  const book: ICasebook = {
    name: 'book',
    root: '/b',
    hasDiagnoses: true,
    problems: [],
    cases: [
      present('numpy_1', ['data/a.csv']),
      present('pandas_1', []),
      present('pandas_2', ['data/b.csv'], false),
      caseRecord('torch_1'),
      caseRecord('torch_2')
    ]
  };

  it('says which cases run, what the others miss, and the datasets missing', () => {
    const f = casebookFacts('/b', book);
    expect(f.runnable).toEqual(['numpy_1', 'pandas_2']);
    expect(f.blocked).toEqual([
      { name: 'pandas_1', missing: ['data'] },
      { name: 'torch_1', missing: ['folder'] },
      { name: 'torch_2', missing: ['folder'] }
    ]);
    expect(f.noFix).toEqual(['pandas_2']);
    expect(f.missingData).toEqual([
      {
        name: 'pandas_1',
        datasets: [
          { title: 'pandas_1 data', license: 'CC0', url: 'https://x/pandas_1' }
        ]
      }
    ]);
  });

  it('judges a casebook by what can run, with the fetch that completes it', () => {
    const checks = doctorChecks({
      python: null,
      casebooks: [
        casebookFacts('/b', book),
        { dir: '/nope', error: 'no descriptor' }
      ]
    });
    const [, shelf, gone, data] = checks;
    expect(shelf.status).toBe('warn');
    expect(shelf.details).toContain(
      '2 cannot run (no folder): torch_1, torch_2'
    );
    expect(shelf.fix).toBe('junobench fetch /b --cases torch_1,torch_2');
    expect(gone).toMatchObject({ id: 'casebook:/nope', status: 'fail' });
    expect(data.status).toBe('warn');
    expect(data.details[0]).toBe(
      'book/pandas_1: pandas_1 data (CC0) https://x/pandas_1'
    );
    expect(data.fix).toBe('junobench fetch /b --cases pandas_1');
  });

  it('lists a few names and counts the rest', () => {
    const many: ICasebook = {
      ...book,
      cases: Array.from({ length: 9 }, (_, i) => caseRecord(`torch_${i}`))
    };
    const c = doctorChecks({
      python: null,
      casebooks: [casebookFacts('/b', many)]
    })[1];
    expect(c.details[1]).toBe(
      '9 cannot run (no folder): torch_0, torch_1, torch_2, torch_3, torch_4, torch_5 and 3 more'
    );
    expect(c.status).toBe('fail');
  });
});

describe('renderDoctor', () => {
  it('prints each check, its details and its fix, then the counts and the time', () => {
    const text = renderDoctor(
      [
        {
          id: 'a',
          title: 'the thing',
          status: 'ok',
          details: ['fine'],
          fix: null
        },
        {
          id: 'b',
          title: 'the other',
          status: 'warn',
          details: [],
          fix: 'do it'
        }
      ],
      0.54
    );
    expect(text.split('\n')).toEqual([
      'ok    the thing',
      '      fine',
      'warn  the other',
      '      to fix: do it',
      '1 ok, 1 to improve, 0 not working (0.5 s)'
    ]);
  });
});

describe('commandHelp', () => {
  const usage = `Usage:
  junobench list <casebook> [--json]
  junobench check <casebook> <case> <nb>
                   [--json]
  junobench check <casebook> --submissions DIR
  junobench new <casebook>

  <casebook> is a folder.`;

  it.each([
    [
      'list',
      'Usage:\n  junobench list <casebook> [--json]\n\n  <casebook> is a folder.'
    ],
    [
      'check',
      'Usage:\n  junobench check <casebook> <case> <nb>\n                   [--json]\n  junobench check <casebook> --submissions DIR\n\n  <casebook> is a folder.'
    ],
    ['nope', null]
  ])('%s', (command, expected) => {
    expect(commandHelp(usage, command)).toBe(expected);
  });
});
