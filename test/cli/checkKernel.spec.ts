/**
 * `junobench check` picks the benchmark environment when the server has it: a
 * server with a `junobench` kernelspec (here a stand-in that runs this
 * Python) checks in it without being told, and a server without one checks in
 * its default kernel; the report says which.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

import {
  checkNotebook,
  defaultCheckKernel,
  formatCheckReport
} from '../../src/cli/check';
import type { IServerHandle } from '../../src/cli/server';
import { loadLocalCasebook } from '../../src/cli/verify';
import { demoNotebook } from '../replay/notebooks';
import { sharedServer } from '../sharedServer';
import { pythonKernelspec, startServerWithKernelspecs } from './kernelspecs';

jest.setTimeout(240000);

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const ROOT = path.resolve(DEMO, '..');

describe('the kernel a check uses', () => {
  let withPins: IServerHandle;
  let stopWithPins: () => Promise<void>;
  let plain: IServerHandle;
  let withContainer: IServerHandle;
  let stopWithContainer: () => Promise<void>;

  beforeAll(async () => {
    ({ server: withPins, stop: stopWithPins } =
      await startServerWithKernelspecs(ROOT, {
        junobench: pythonKernelspec('JunoBench (benchmark pins)')
      }));
    // The shared server's root stands for the folder above the casebook.
    plain = sharedServer();
    // A stand-in for the container kernelspec: this Python, marked as the
    // container the way `install --container` marks it.
    ({ server: withContainer, stop: stopWithContainer } =
      await startServerWithKernelspecs(ROOT, {
        junobench: pythonKernelspec('JunoBench (benchmark pins)', {
          env: { JUNOBENCH_ENVIRONMENT: 'pinned' },
          metadata: { junobench: { environment: 'pinned' } }
        }),
        'junobench-container': pythonKernelspec('JunoBench (container)', {
          env: {
            JUNOBENCH_ENVIRONMENT: 'container',
            JUNOBENCH_IMAGE: 'junobench:latest@f041856032d3'
          },
          metadata: {
            junobench: {
              environment: 'container',
              image: 'junobench:latest',
              image_id: 'f041856032d3'
            }
          }
        })
      }));
  });

  afterAll(async () => {
    await stopWithPins?.();
    await stopWithContainer?.();
  });

  it('is the pinned junobench kernel when the server has it, else the default', async () => {
    expect(await defaultCheckKernel(withPins.settings)).toBe('junobench');
    expect(await defaultCheckKernel(plain.settings)).toBe('python3');
  });

  it.each([
    ['auto', 'junobench-container'],
    ['container', 'junobench-container'],
    ['pinned', 'junobench'],
    ['server', 'python3']
  ] as const)(
    'with the container present, --environment %s checks in %s',
    async (preference, kernel) => {
      expect(await defaultCheckKernel(withContainer.settings, preference)).toBe(
        kernel
      );
    }
  );

  it('falls back from the container to the pinned kernel when there is none', async () => {
    expect(await defaultCheckKernel(withPins.settings, 'container')).toBe(
      'junobench'
    );
  });

  it('says in the report that the check ran in the container, and in which image', async () => {
    const report = await checkNotebook({
      casebook: await loadLocalCasebook(DEMO),
      casebookDir: DEMO,
      caseName: 'numpy_1',
      notebook: demoNotebook('numpy_1', 'fixed'),
      notebookLabel: 'numpy_1_fixed.ipynb',
      settings: withContainer.settings,
      serverRoot: ROOT,
      timeoutMs: 120000
    });
    expect(report).toMatchObject({
      kernel: 'junobench-container',
      environment: 'container',
      image: 'junobench:latest@f041856032d3',
      environmentChoice: {
        wanted: 'auto',
        environment: 'container',
        kernel: 'junobench-container',
        fellBack: false
      },
      passed: true
    });
    expect(report.evidence?.environment).toMatchObject({
      environment: 'container',
      image: 'junobench:latest@f041856032d3'
    });
    expect(formatCheckReport(report)).toMatch(
      /\n {2}environment: the benchmark container \(image junobench:latest@f041856032d3\) \(kernel junobench-container\)$/
    );
  });

  it('is said in the report of a check that was not told which kernel to use', async () => {
    const report = await checkNotebook({
      casebook: await loadLocalCasebook(DEMO),
      casebookDir: DEMO,
      caseName: 'numpy_1',
      notebook: demoNotebook('numpy_1', 'fixed'),
      notebookLabel: 'numpy_1_fixed.ipynb',
      settings: withPins.settings,
      serverRoot: ROOT,
      timeoutMs: 120000
    });
    expect(report).toMatchObject({
      kernel: 'junobench',
      // The stand-in carries no marker: a spec named junobench is the pinned kernel.
      environmentChoice: { environment: 'pinned', fellBack: false },
      // Its probe finds no JUNOBENCH_ENVIRONMENT: what ran is the server's Python.
      environment: 'server',
      image: null,
      passed: true
    });
    // The kernel's libraries were compared with the benchmark's: every one named differs, and
    // numpy (imported by the notebook) is named exactly when its version is not the pin.
    const env = report.evidence?.environment;
    expect(env).toBeTruthy();
    expect(env!.libraries.every(l => l.found !== l.pinned)).toBe(true);
    const numpy = execFileSync(
      'python',
      ['-c', 'import numpy; print(numpy.__version__)'],
      {
        encoding: 'utf8'
      }
    ).trim();
    expect(env!.libraries.some(l => l.name === 'numpy')).toBe(
      numpy !== '1.26.4'
    );
    expect(report.findings.some(f => f.code === 'environment')).toBe(
      env!.libraries.length > 0 || env!.python !== null
    );
  });
});
