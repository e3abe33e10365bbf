#!/usr/bin/env node
/**
 * Embed the kernel-side modules into the TypeScript build: the probe
 * (jupyterlab_junobench/probe.py -> src/kernel/probe.generated.json) and the
 * check's scratch copy and guard (jupyterlab_junobench/scratch.py ->
 * src/kernel/scratch.generated.json), each with the module's text, its VERSION
 * and a hash of the text. Run by the build scripts and by jest's global
 * set-up, so the text the kernels receive is always the file's.
 *
 *   node scripts/embed-probe.js          # (re)write when the probe changed
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const MODULES = ['probe', 'scratch'];

function embed() {
  MODULES.forEach(embedOne);
}

function embedOne(name) {
  const SOURCE = path.join(ROOT, 'jupyterlab_junobench', `${name}.py`);
  const TARGET = path.join(ROOT, 'src', 'kernel', `${name}.generated.json`);
  const source = fs.readFileSync(SOURCE, 'utf8');
  const match = /^VERSION = (\d+)\s*$/m.exec(source);
  if (!match) {
    throw new Error(`${SOURCE}: no "VERSION = <number>" line`);
  }
  const text = JSON.stringify({
    version: Number(match[1]),
    hash: crypto.createHash('sha1').update(source).digest('hex').slice(0, 16),
    source
  });
  const old = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, 'utf8') : null;
  if (old !== text) {
    fs.writeFileSync(TARGET, text);
  }
}

module.exports = embed;

if (require.main === module) {
  embed();
}
