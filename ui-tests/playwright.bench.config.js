/**
 * Playwright configuration for the browser benchmark (scripts/benchmark-browser.sh):
 * the UI-test configuration, pointed at ./bench, with no retries and no
 * snapshots. It prints numbers; it asserts only that the measured actions work.
 */
const config = require('./playwright.config');

module.exports = {
  ...config,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  retries: 0,
  timeout: 15 * 60 * 1000,
  reporter: [['list']]
};
