#!/usr/bin/env node
// Entry point of the `junobench` command line (built into lib-cli/ by `jlpm build:cli`).
const { main } = require('../lib-cli/cli/main.js');
// A kernel restarted by the server while it started must not end this process (src/cli/node.ts).
require('../lib-cli/cli/node.js').tolerateCanceledKernelInfo();

// @jupyterlab/services logs every websocket it opens at debug level; keep the CLI output readable.
if (!process.env.JUNOBENCH_DEBUG) {
  console.debug = () => undefined;
}

main(process.argv.slice(2)).then(
  code => process.exit(code),
  error => {
    console.error(error);
    process.exit(2);
  }
);
