#!/usr/bin/env node
/**
 * Embed the kernel-side modules into the TypeScript build: the probe
 * (jupyterlab_junobench/probe.py -> src/kernel/probe.generated.json) and the
 * check's scratch copy and guard (jupyterlab_junobench/scratch.py ->
 * src/repair/scratch.generated.json), each with the module's text, its VERSION
 * and a hash of the text. The check's policy
 * (jupyterlab_junobench/check_policy.json) is validated, copied to
 * src/repair/policy.generated.json for the judge, and its values are written
 * into each module's `POLICY: dict[str, float] = {}` line: the kernel that
 * runs the text cannot read our files, and the hash (the reference cache's
 * key) changes with the policy. Run by the build scripts and by jest's global
 * set-up, so the text the kernels receive is always the files'.
 *
 *   node scripts/embed-probe.js          # (re)write when a file changed
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const MODULES = { probe: 'kernel', scratch: 'repair' };
const POLICY = path.join(ROOT, 'jupyterlab_junobench', 'check_policy.json');
const MARKER = /^POLICY: dict\[str, float\] = \{\}$/m;

function embed() {
  const policy = readPolicy();
  write(path.join(ROOT, 'src', 'repair', 'policy.generated.json'), policy);
  const values = Object.fromEntries(
    Object.entries(policy).map(([name, entry]) => [name, entry.value])
  );
  for (const [name, folder] of Object.entries(MODULES)) {
    embedOne(name, folder, values);
  }
}

/** The policy's entries, each with a number and a reason, or a clear error. */
function readPolicy() {
  const policy = JSON.parse(fs.readFileSync(POLICY, 'utf8'));
  for (const [name, entry] of Object.entries(policy)) {
    if (typeof entry?.value !== 'number' || !Number.isFinite(entry.value)) {
      throw new Error(`${POLICY}: ${name}: the value is not a number`);
    }
    if (typeof entry.reason !== 'string' || !entry.reason.trim()) {
      throw new Error(`${POLICY}: ${name}: no reason given`);
    }
  }
  return policy;
}

function embedOne(name, folder, values) {
  const SOURCE = path.join(ROOT, 'jupyterlab_junobench', `${name}.py`);
  const original = fs.readFileSync(SOURCE, 'utf8');
  const match = /^VERSION = (\d+)\s*$/m.exec(original);
  if (!match) {
    throw new Error(`${SOURCE}: no "VERSION = <number>" line`);
  }
  if (!MARKER.test(original)) {
    throw new Error(`${SOURCE}: no "POLICY: dict[str, float] = {}" line`);
  }
  const line = `POLICY: dict[str, float] = ${JSON.stringify(values)}`;
  const source = original.replace(MARKER, () => line);
  write(path.join(ROOT, 'src', folder, `${name}.generated.json`), {
    version: Number(match[1]),
    hash: crypto.createHash('sha1').update(source).digest('hex').slice(0, 16),
    source
  });
}

/** Write a JSON file only when its text changes (a watching compiler is not woken). */
function write(target, value) {
  const text = JSON.stringify(value);
  const old = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
  if (old !== text) {
    fs.writeFileSync(target, text);
  }
}

module.exports = embed;

if (require.main === module) {
  embed();
}
