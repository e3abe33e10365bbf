/**
 * The check's policy is one file (jupyterlab_junobench/check_policy.json):
 * the judge's values, the values written into the probe's and the scratch
 * module's text, and the file's agree, and every entry says why.
 */
import * as fs from 'fs';
import * as path from 'path';

import { closeNumbers } from '../../src/repair/compare';
import { POLICY } from '../../src/repair/policy';
import probe from '../../src/kernel/probe.generated.json';
import scratch from '../../src/repair/scratch.generated.json';

const FILE = path.resolve(
  __dirname,
  '../../jupyterlab_junobench/check_policy.json'
);

/** The policy file's entries, read as the validators read it. */
const entries: Record<string, { value: number; reason: string }> = JSON.parse(
  fs.readFileSync(FILE, 'utf8')
);
const values = Object.fromEntries(
  Object.entries(entries).map(([name, e]) => [name, e.value])
);

/** The values written into a kernel-side module's `POLICY` line. */
function embedded(source: string): Record<string, number> {
  const line = /^POLICY: dict\[str, float\] = (\{.*\})$/m.exec(source);
  expect(line).not.toBeNull();
  return JSON.parse(line![1]);
}

describe('the check policy', () => {
  it.each(Object.keys(entries))('%s has a number and a reason', name => {
    expect(Number.isFinite(entries[name].value)).toBe(true);
    expect(entries[name].reason.split(/\s+/).length).toBeGreaterThanOrEqual(8);
  });

  it("the judge's values are the file's", () => {
    expect({ ...POLICY }).toEqual(values);
  });

  it.each([
    ['probe', probe.source],
    ['scratch', scratch.source]
  ])("the %s's embedded text carries the file's values", (_, source) => {
    expect(embedded(source)).toEqual(values);
  });

  it('the tolerance rule is the policy value', () => {
    const rel = values.relativeTolerance;
    expect(closeNumbers(1000, 1000 * (1 + rel / 2))).toBe(true);
    expect(closeNumbers(1000, 1000 * (1 + rel * 2))).toBe(false);
  });
});
