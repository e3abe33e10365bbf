/**
 * Playwright configuration for the jupyterlab-junobench UI tests.
 *
 * Built on Galata's base configuration; the browser is the system Chromium
 * (no Playwright browser download is possible on our machines) and the
 * timeouts are sized for a 2-core machine running JupyterLab, a kernel and
 * Chromium side by side.
 */
const baseConfig = require('@jupyterlab/galata/lib/playwright-config');
const fs = require('fs');
const os = require('os');
const path = require('path');

// One contents root that the server and the specs both know (the specs put
// on disk what the Contents API cannot make, e.g. a git sparse copy); workers
// and the web server inherit it from this process.
if (!process.env.JUPYTERLAB_GALATA_ROOT_DIR) {
  process.env.JUPYTERLAB_GALATA_ROOT_DIR = fs.mkdtempSync(
    path.join(os.tmpdir(), 'junobench-ui-tests-')
  );
}

const CHROMIUM = process.env.JUNOBENCH_CHROMIUM || '/usr/bin/chromium';
// The test server's port; jupyter_server_test_config.py reads the same variable.
const PORT = process.env.JUNOBENCH_UI_PORT || '8888';
const BASE_URL = `http://localhost:${PORT}`;

module.exports = {
  ...baseConfig,
  testDir: './tests',
  // One worker: the tests share one Jupyter server and there are only 2 cores.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // One retry on CI absorbs a rare slow kernel start; locally fail fast.
  retries: process.env.CI ? 1 : 0,
  timeout: 120 * 1000,
  expect: {
    timeout: 20 * 1000,
    toHaveScreenshot: {
      // Anti-aliasing differences only; a layout change is far above this.
      maxDiffPixelRatio: 0.01
    }
  },
  // The list reporter prints "N passed" at the end on CI too.
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    ...baseConfig.use,
    baseURL: BASE_URL,
    actionTimeout: 30 * 1000,
    navigationTimeout: 90 * 1000,
    trace: 'off',
    video: 'off',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run'
      ]
    }
  },
  webServer: {
    // The server log goes to a file (scripts/ui-tests.sh prints its tail on
    // failure) so the test report stays readable.
    command: 'jlpm start > jupyter-server.log 2>&1',
    url: `${BASE_URL}/lab`,
    timeout: 180 * 1000,
    reuseExistingServer: !process.env.CI
  }
};
