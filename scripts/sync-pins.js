#!/usr/bin/env node
// Regenerate src/kernel/pins.ts from jupyterlab_junobench/pins.json, the one
// place the benchmark pins are edited (Python reads the JSON, TypeScript the
// generated module; test/kernel/drift.spec.ts fails when they differ).
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const json = JSON.parse(
  fs.readFileSync(path.join(root, 'jupyterlab_junobench/pins.json'), 'utf8')
);
delete json.$comment;
const body = `/**
 * The JunoBench container's library pins and the closest local pins.
 *
 * Generated from jupyterlab_junobench/pins.json by scripts/sync-pins.js: edit
 * the JSON, then run \`node scripts/sync-pins.js\`.
 */
import type { IPins } from './drift';

/** The benchmark pins (see docs/environment.md). */
export const BENCHMARK_PINS: IPins = ${JSON.stringify(json, null, 2)};
`;
const target = path.join(root, 'src/kernel/pins.ts');
const prettier = require('prettier');
prettier
  .resolveConfig(target)
  .then(options => prettier.format(body, { ...options, filepath: target }))
  .then(text => {
    fs.writeFileSync(target, text);
    console.log('wrote src/kernel/pins.ts');
  });
