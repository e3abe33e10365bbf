/**
 * jest's own test runner, told to run its spec files one at a time in jest's
 * process (not a spec file). The "kernel" project uses it: its specs share one
 * Jupyter server, and some of them read what that server runs (the kernels
 * listed, the kernelspecs offered), which another spec running beside them
 * would change. The "unit" project keeps jest's workers.
 */
const TestRunner = require('jest-runner').default;

class SerialRunner extends TestRunner {
  constructor(globalConfig, context) {
    super(globalConfig, context);
    this.isSerial = true;
  }
}

module.exports = SerialRunner;
