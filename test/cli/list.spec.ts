import * as fs from 'fs';
import * as path from 'path';

import { runCli } from './capture';

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const SHARED = path.resolve(__dirname, '../../../shared/junobench');

/** Run the CLI; what it printed with console.log and console.error, as text. */
async function run(
  args: string[]
): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('junobench list', () => {
  it('prints the demo casebook as JSON, one object per case', async () => {
    const { code, out } = await run(['list', DEMO, '--json']);
    expect(code).toBe(0);
    const cases = JSON.parse(out) as Record<string, unknown>[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    const names = cases.map(c => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'NBspecific_1',
        'NBspecific_2',
        'NBspecific_3',
        'numpy_1',
        'numpy_2',
        'pandas_1',
        'pandas_2',
        'sklearn_1',
        'sklearn_2',
        'matplotlib_1'
      ])
    );
    for (const c of cases) {
      expect(Object.keys(c)).toEqual(
        expect.arrayContaining([
          'name',
          'library',
          'ename',
          'evalue',
          'rootCause',
          'crashType',
          'pipelineStage',
          'files'
        ])
      );
      expect((c.files as Record<string, boolean>).reproduced).toBe(true);
      expect((c.files as Record<string, boolean>).fixed).toBe(true);
    }
    expect(cases.find(c => c.name === 'pandas_1')?.library).toBe('pandas');
  });

  it('prints a table with a header line', async () => {
    const { code, out } = await run(['list', DEMO]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^casebook: \d+ case\(s\)$/);
    expect(out).toContain('numpy_1');
  });

  (fs.existsSync(SHARED) ? it : it.skip)(
    'lists the real JunoBench descriptor with markers for absent folders',
    async () => {
      const { code, out } = await run(['list', SHARED, '--json']);
      expect(code).toBe(0);
      const cases = JSON.parse(out) as {
        name: string;
        problems: string[];
        files: { data: string[] };
      }[];
      expect(cases).toHaveLength(111);
      expect(cases.find(c => c.name === 'sklearn_3')?.files.data.length).toBe(
        3
      );
      expect(cases.find(c => c.name === 'pandas_3')?.problems).toContain(
        'case folder not found'
      );
    }
  );

  it.each([
    [['list'], /expected one casebook folder/],
    [['list', '/no/such/folder'], /benchmark_desc\.xlsx|no such|not found/i],
    [['frobnicate'], /unknown command/],
    [['verify', DEMO, '--jobs', '0'], /--jobs must be a whole number/]
  ])('%j fails clearly', async (args, message) => {
    const { code, out, err } = await run(args as string[]);
    if (code === 0) {
      // A missing casebook folder lists nothing but says why.
      expect(err + out).toMatch(message);
    } else {
      expect(code).toBe(2);
      expect(err).toMatch(message);
    }
  });
});
