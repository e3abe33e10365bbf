#!/usr/bin/env node
/**
 * The restart race (docs/faults.md), outside Jest: kernels of the server's own
 * `python3` kernelspec on a private Jupyter server, restarted many times through
 * @jupyterlab/services; after each restart a `kernel_info` request with a
 * timeout, and a silent kernel restarted again (as `restartAnswering` does).
 * `--provoke MS` opens a second websocket of the session MS after each restart
 * starts (an overlapping reconnection); `--busy` restarts while a cell sleeps.
 *
 * Usage (after scripts/setup.sh, inside .venv):
 *   node scripts/restart-race.js [--restarts N] [--kernels K] [--busy] [--provoke MS]
 *                                [--log FILE]   (the server's log: "Replacing stale connection")
 * Prints one JSON line: restarts, silences, recovered by another restart, left silent.
 */
const path = require('path');
const { parseArgs } = require('util');

console.debug = () => undefined;
console.warn = () => undefined;

const ROOT = path.join(__dirname, '..');
const lib = path.join(ROOT, 'lib-cli');
// What @jupyterlab/services leaves unhandled must not end this process (src/cli/node.ts).
require(path.join(lib, 'cli/node.js')).tolerateServicesRejections();
const { startServer } = require(path.join(lib, 'cli/server.js'));
const { within } = require(path.join(lib, 'kernel/freshSession.js'));
const { KernelAPI, KernelManager } = require('@jupyterlab/services');

const { values } = parseArgs({
  options: {
    restarts: { type: 'string', default: '20' },
    kernels: { type: 'string', default: '1' },
    busy: { type: 'boolean', default: false },
    provoke: { type: 'string' },
    log: { type: 'string' }
  }
});
const RESTARTS = Number(values.restarts);
const KERNELS = Number(values.kernels);
const PROVOKE = values.provoke === undefined ? null : Number(values.provoke);
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

function answers(kernel) {
  return within(
    kernel.requestKernelInfo().then(
      reply => !!reply,
      () => false
    ),
    5000
  );
}

async function restartMany(kernels, totals) {
  const kernel = await kernels.startNew({ name: 'python3' });
  await kernel.info;
  for (let i = 0; i < RESTARTS; i++) {
    if (values.busy) {
      kernel
        .requestExecute({ code: 'import time; time.sleep(10)' })
        .done.catch(() => undefined);
      await sleep(100);
    }
    const restarting = kernel.restart();
    if (PROVOKE !== null) {
      await sleep(PROVOKE);
      void kernel.reconnect().catch(() => undefined);
    }
    await restarting.catch(() => undefined);
    totals.restarts += 1;
    if (await answers(kernel)) {
      continue;
    }
    totals.silences += 1;
    await KernelAPI.restartKernel(kernel.id, kernel.serverSettings);
    await kernel.reconnect().catch(() => undefined);
    if (await answers(kernel)) {
      totals.recovered += 1;
    } else {
      totals.leftSilent += 1;
    }
  }
  await kernel.shutdown().catch(() => undefined);
}

async function main() {
  const server = await startServer({ rootDir: ROOT, logFile: values.log });
  const kernels = new KernelManager({ serverSettings: server.settings });
  const totals = { restarts: 0, silences: 0, recovered: 0, leftSilent: 0 };
  try {
    await Promise.all(
      Array.from({ length: KERNELS }, () => restartMany(kernels, totals))
    );
  } finally {
    kernels.dispose();
    await server.stop();
  }
  console.log(
    JSON.stringify({
      kernels: KERNELS,
      busy: values.busy,
      provokeMs: PROVOKE,
      ...totals
    })
  );
}

main().then(
  () => process.exit(0),
  error => {
    console.error(`restart-race: ${error.message}`);
    process.exit(1);
  }
);
