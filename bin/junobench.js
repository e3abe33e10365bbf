#!/usr/bin/env node
// Entry point of the `junobench` command line (built into lib-cli/ by `jlpm build:cli`).
const { main } = require('../lib-cli/cli/main.js');
const { exitWith, guardCommandLine } = require('../lib-cli/cli/node.js');

// No stack for what @jupyterlab/services leaves unhandled, one line before the stack of an
// unexpected error, and on every way out (the end, an error, SIGINT, SIGTERM) the kernels and
// the private Jupyter server this run started are stopped (src/cli/node.ts).
guardCommandLine();

// @jupyterlab/services logs every websocket it opens at debug level; keep the CLI output readable.
if (!process.env.JUNOBENCH_DEBUG) {
  console.debug = () => undefined;
}

main(process.argv.slice(2)).then(
  code => exitWith(code),
  error => {
    // main() answers every error it expects with a message and an exit code.
    console.error(
      `junobench: unexpected error: ${error?.message ?? error} (a bug in junobench)`
    );
    if (error?.stack) {
      process.stderr.write(`${error.stack}\n`);
    }
    return exitWith(2);
  }
);
