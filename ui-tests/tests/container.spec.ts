/**
 * A demo case opened, replayed and checked in the benchmark container: the
 * `environment` setting asks for it, the case header says so.
 *
 * The other specs run in the server's Python (the test server's default
 * setting override); this one mocks its own settings with `container`, so
 * nothing is left changed for them. Without a `junobench-container`
 * kernelspec on the test server (scripts/ui-tests.sh adds the one
 * scripts/test.sh installs) it skips, unless JUNOBENCH_CONTAINER_REQUIRED=1
 * says the image was built: then it fails.
 */
import { expect, galata, test } from '@jupyterlab/galata';

import { NUMPY_1, openCaseSection, openDemoCase, SLOW } from './junobench';

const { name: CASE, target: TARGET, broken: BROKEN, fixed: FIXED } = NUMPY_1;
const CONTAINER_KERNEL = 'junobench-container';

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:replay': { environment: 'container' }
  }
});

test.describe('The benchmark container', () => {
  // Each kernel starts a container: the case's, then the check's two fresh ones.
  test.setTimeout(6 * 60 * 1000);

  test.beforeEach(async ({ request }) => {
    const response = await request.get('/api/kernelspecs');
    expect(response.ok()).toBe(true);
    const specs = (await response.json()) as {
      kernelspecs: Record<string, unknown>;
    };
    const present = CONTAINER_KERNEL in specs.kernelspecs;
    if (process.env.JUNOBENCH_CONTAINER_REQUIRED === '1') {
      expect(
        present,
        `JUNOBENCH_CONTAINER_REQUIRED=1 but the test server has no ${CONTAINER_KERNEL} kernelspec (kernelspecs: ${Object.keys(specs.kernelspecs).join(', ')}); install it with python -m jupyterlab_junobench.kernel install --container --kernel-prefix .container-kernel`
      ).toBe(true);
    }
    test.skip(
      !present,
      `No ${CONTAINER_KERNEL} kernelspec on the test server: build the image and install the kernelspec into .container-kernel (scripts/test.sh does both) to run this spec.`
    );
  });

  test.afterEach(async ({ request }) => {
    // The other specs open the same case in the server's Python: leave no
    // container kernel behind for them to join.
    const sessions = (await (await request.get('/api/sessions')).json()) as {
      id: string;
      kernel: { name: string } | null;
    }[];
    for (const s of sessions) {
      if (s.kernel?.name === CONTAINER_KERNEL) {
        await request.delete(`/api/sessions/${s.id}`);
      }
    }
  });

  test('a case opens, replays and is checked in the container, and the header says so', async ({
    page
  }) => {
    const { header, notebook, checkBar } = await openDemoCase(page, CASE);

    // The working copy's kernel is the container's.
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              (
                window as unknown as {
                  jupyterapp: {
                    shell: {
                      currentWidget: {
                        sessionContext?: {
                          session?: { kernel?: { name: string } };
                        };
                      } | null;
                    };
                  };
                }
              ).jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel
                ?.name ?? null
          ),
        { timeout: SLOW }
      )
      .toBe(CONTAINER_KERNEL);

    // The environment line says where the kernel runs, from the kernel itself.
    const section = await openCaseSection(page, 'environment');
    const drift = section.getByRole('note', {
      name: 'Environment compared with the benchmark pins'
    });
    await expect(drift).toHaveAttribute('data-environment', 'container', {
      timeout: SLOW
    });
    await expect(drift).toHaveText(
      /^Environment: (in the benchmark environment \(the benchmark container \(image junobench:\S+@[0-9a-f]{12}\)\)|the benchmark container \(image junobench:\S+@[0-9a-f]{12}\); .+)\.$/
    );
    // The tooltip names the kernel's prefix inside the image.
    await expect(drift).toHaveAttribute(
      'title',
      /^Kernel environment: \/opt\/junobench$/
    );

    // Replay: the recorded crash, reproduced in the container (the crashing
    // cell as recorded: check.spec.ts leaves this case's copy repaired).
    await page.notebook.setCell(TARGET, 'code', BROKEN);
    const replay = header.getByRole('button', { name: 'Replay', exact: true });
    await expect(replay).toBeEnabled({ timeout: SLOW });
    await replay.click();
    await expect(
      notebook.locator('.jp-Cell.jp-Junobench-crashCell')
    ).toHaveCount(1, { timeout: SLOW });
    await expect(header.locator('.jp-Junobench-replayStatus')).toContainText(
      'ValueError',
      { timeout: SLOW }
    );
    await expect(
      page.locator('.jp-Junobench-verdict').filter({ visible: true })
    ).toContainText('Reproduced as recorded');
    await expect(drift).toHaveAttribute('data-environment', 'container');

    // Check my fix: fresh container kernels run the repair and the reference.
    await page.notebook.setCell(TARGET, 'code', FIXED);
    const check = checkBar.getByRole('button', { name: 'Check my fix' });
    await expect(check).toBeEnabled({ timeout: SLOW });
    await check.click();
    await expect(checkBar.locator('.jp-Junobench-checkResult')).toContainText(
      'Solved:',
      { timeout: 3 * 60 * 1000 }
    );
  });
});
