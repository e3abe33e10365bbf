#!/usr/bin/env node
/**
 * Write a synthetic casebook with many cases, for load and filter benchmarks:
 * <dir>/benchmark_desc.xlsx (one row per case, the real descriptor's columns)
 * and <dir>/benchmark/<case>/ with stub reproduced and fixed notebooks, a
 * README and a data/ folder, like a real case folder.
 *
 * Usage: node scripts/make-big-casebook.js <dir> [--cases 10000] [--store]   (after jlpm build:lib)
 *   --store  keep the workbook's parts uncompressed (read without inflating)
 */
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');
const { strToU8, zipSync } = require('fflate');

// The descriptor's columns, as the loader knows them (lib-cli: `jlpm build:lib`).
const {
  KNOWN_DESCRIPTOR_COLUMNS: HEADER
} = require('../lib-cli/casebook/descriptor.js');
// Values in the proportions of a real catalogue: a few common, many rare.
const LIBRARIES = ['tensorflow', 'pytorch', 'sklearn', 'pandas', 'numpy', 'matplotlib', 'seaborn', 'lightgbm', 'NBspecific'];
const ENAMES = ['valueerror', 'typeerror', 'keyerror', 'indexerror', 'attributeerror', 'runtimeerror', 'nameerror', 'modulenotfounderror'];
const ROOT_CAUSES = ['API misuse', 'data confusion', 'NB specific', 'implementation error', 'environment setting', 'unknown'];
const CRASH_TYPES = ['invalid argument', 'shape mismatch', 'missing key', 'wrong type', 'undefined variable', 'out of range', 'module not found'];
const STAGES = ['data preparation', 'training', 'evaluation', 'visualization', 'environment setup'];

/** A small deterministic generator, so every run writes the same casebook. */
function rng(seed) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function pick(random, values) {
  // Squared: earlier values are more common.
  return values[Math.floor(random() * random() * values.length)];
}

function esc(text) {
  return String(text).replace(/[<>&"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
}

function column(i) {
  let s = '';
  for (i += 1; i > 0; i = Math.floor((i - 1) / 26)) {
    s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  }
  return s;
}

/** The bytes of an .xlsx with one sheet of inline strings. */
function xlsx(rows, store) {
  const sheetRows = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">` +
        row
          .map((v, c) =>
            v === null ? '' : `<c r="${column(c)}${r + 1}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`
          )
          .join('') +
        '</row>'
    )
    .join('');
  const xml = body => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
  const files = {
    '[Content_Types].xml': xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>'
    ),
    '_rels/.rels': xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>'
    ),
    'xl/workbook.xml': xml(
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    'xl/_rels/workbook.xml.rels': xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '</Relationships>'
    ),
    'xl/worksheets/sheet1.xml': xml(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`
    )
  };
  const zipped = {};
  for (const [name, text] of Object.entries(files)) {
    zipped[name] = [strToU8(text), { level: store ? 0 : 6 }];
  }
  return zipSync(zipped);
}

function notebook(name, crash) {
  const cells = [
    { cell_type: 'code', execution_count: 1, id: 'a', metadata: {}, outputs: [], source: 'x = 1' },
    {
      cell_type: 'code',
      execution_count: 2,
      id: 'b',
      metadata: {},
      outputs: crash
        ? [{ output_type: 'error', ename: 'ValueError', evalue: `bad value in ${name}`, traceback: [] }]
        : [],
      source: crash ? `raise ValueError('bad value in ${name}')` : 'y = x + 1'
    }
  ];
  return JSON.stringify({
    cells,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    nbformat: 4,
    nbformat_minor: 5
  });
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { cases: { type: 'string', default: '10000' }, store: { type: 'boolean', default: false } }
  });
  const dir = positionals[0];
  const n = Number(values.cases);
  if (!dir || !Number.isInteger(n) || n < 1) {
    console.error('usage: node scripts/make-big-casebook.js <dir> [--cases N] [--store]');
    process.exit(2);
  }
  const random = rng(6);
  const perLibrary = {};
  const rows = [HEADER];
  for (let i = 0; i < n; i++) {
    const library = pick(random, LIBRARIES);
    perLibrary[library] = (perLibrary[library] ?? 0) + 1;
    const name = `${library}_${perLibrary[library]}`;
    const ename = pick(random, ENAMES);
    rows.push([
      name,
      `eid-${i}`,
      ename,
      `case ${i}: ${pick(random, ['shapes (3,) and (4,) not aligned', 'could not convert string to float', "'DataFrame' object has no attribute 'ix'", 'index 10 is out of bounds', 'name is not defined'])}`,
      `['---', "${ename}: case ${i}"]`,
      pick(random, ROOT_CAUSES),
      pick(random, CRASH_TYPES),
      pick(random, STAGES),
      random() < 0.7 ? 'ML bug' : 'not ML bug',
      'Some data',
      null,
      'CC0',
      null,
      'https://example.invalid/data',
      null,
      `https://example.invalid/nb/${i}`
    ]);
  }
  fs.mkdirSync(path.join(dir, 'benchmark'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'benchmark_desc.xlsx'), xlsx(rows, values.store));
  for (const row of rows.slice(1)) {
    const name = row[0];
    const folder = path.join(dir, 'benchmark', name);
    fs.mkdirSync(path.join(folder, 'data'), { recursive: true });
    fs.writeFileSync(path.join(folder, `${name}_reproduced.ipynb`), notebook(name, true));
    fs.writeFileSync(path.join(folder, `${name}_fixed.ipynb`), notebook(name, false));
    fs.writeFileSync(path.join(folder, 'README.md'), `# ${name}\n`);
    fs.writeFileSync(path.join(folder, 'data', 'train.csv'), 'a,b\n1,2\n');
  }
  const size = fs.statSync(path.join(dir, 'benchmark_desc.xlsx')).size;
  console.log(`${dir}: ${n} cases, benchmark_desc.xlsx ${(size / 1024).toFixed(0)} KiB${values.store ? ' (stored)' : ''}`);
}

main();
