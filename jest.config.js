const os = require('os');

const jestJupyterLab = require('@jupyterlab/testutils/lib/jest-config');

const embedProbe = require('./scripts/embed-probe');

// The kernel probe's text is embedded from jupyterlab_junobench/probe.py
// before jest compiles anything: the kernel project's TypeScript global
// set-up is compiled with the whole test program, which imports the embedded
// text, and that compiler would keep missing a file written after it started.
embedProbe();

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

/**
 * The specs that need a Jupyter server: they run one at a time on the server
 * that the "kernel" project's global set-up starts (test/sharedServer.ts), or
 * start their own where the test is about the server itself.
 */
const kernelSpecs = [
  'authoring/flow',
  'authoring/history',
  'authoring/model',
  'cli/answerKey',
  'cli/batch',
  'cli/check',
  'cli/checkKernel',
  'cli/explain',
  'cli/session',
  'cli/verify',
  'kernel/drift',
  'kernel/evidence',
  'kernel/pristine',
  'kernel/restart',
  'kernel/restartWatch',
  'kernel/runner',
  'kernel/warmPool',
  'model/controllers',
  'progress/serverRestart',
  'repair/interpreterKernel',
  'repair/repairCheck',
  'widgets/caseSidePanel'
].map(name => `<rootDir>/test/${name}.spec.ts`);

const {
  coverageDirectory,
  coverageReporters,
  reporters: _reporters,
  testRegex: _testRegex,
  testTimeout,
  ...projectConfig
} = jestJupyterLab(__dirname);

const project = {
  ...projectConfig,
  rootDir: __dirname,
  automock: false,
  testPathIgnorePatterns: ['/lib/', '/node_modules/', '/ui-tests/'],
  transformIgnorePatterns: [`/node_modules/(?!${esModules}).+`]
};

module.exports = {
  // At least two workers for the unit project (the kernel project runs its
  // specs one at a time in jest's own process whatever this says): on two
  // cores, jest's default of one worker runs the unit specs in its own
  // process, which took 60 s and 78 CPU-s against 30 s and 57 CPU-s in two.
  maxWorkers: Math.max(2, os.cpus().length - 1),
  coverageDirectory,
  coverageReporters,
  testTimeout,
  reporters: ['default'],
  // Again before each run (a watch run included), whichever projects run.
  globalSetup: '<rootDir>/scripts/embed-probe.js',
  projects: [
    {
      ...project,
      displayName: 'unit',
      testRegex: 'test/.*\\.spec\\.ts$',
      testPathIgnorePatterns: [
        ...project.testPathIgnorePatterns,
        ...kernelSpecs
      ]
    },
    {
      ...project,
      displayName: 'kernel',
      testMatch: kernelSpecs,
      globalSetup: '<rootDir>/test/global/setup.ts',
      globalTeardown: '<rootDir>/test/global/teardown.ts',
      runner: '<rootDir>/test/global/serialRunner.js'
    }
  ]
};
