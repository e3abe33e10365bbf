const jestJupyterLab = require('@jupyterlab/testutils/lib/jest-config');

const esModules = [
  '@codemirror',
  '@jupyter/',
  '@jupyterlab/',
  '@lumino/',
  'lib0',
  'nanoid',
  'vscode-ws-jsonrpc',
  'y-protocols',
  'y-websocket',
  'yjs',
  'read-excel-file',
  'unzipper-esm',
  'saxen',
  'fflate',
  'worker-f',
  '@microsoft/fast-',
  'exenv-es6'
].join('|');

const baseConfig = jestJupyterLab(__dirname);

module.exports = {
  ...baseConfig,
  automock: false,
  // The kernel probe's text is embedded from jupyterlab_junobench/probe.py.
  globalSetup: '<rootDir>/scripts/embed-probe.js',
  reporters: ['default'],
  testRegex: 'test/.*\\.spec\\.ts$',
  testPathIgnorePatterns: ['/lib/', '/node_modules/', '/ui-tests/'],
  transformIgnorePatterns: [`/node_modules/(?!${esModules}).+`]
};
