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
    expect(out.split('\n')[0]).toMatch(
      /^casebook: \d+ case\(s\), \d+ runnable here$/
    );
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
        markers: { code: string }[];
        files: { data: string[] };
      }[];
      expect(cases).toHaveLength(111);
      expect(cases.find(c => c.name === 'sklearn_3')?.files.data.length).toBe(
        3
      );
      expect(cases.find(c => c.name === 'pandas_3')?.problems).toContain(
        'case folder not found'
      );
      // The same marker as a code, for readers that translate.
      expect(cases.find(c => c.name === 'pandas_3')?.markers).toContainEqual({
        code: 'folder-not-found'
      });
    }
  );

  (fs.existsSync(SHARED) ? it : it.skip)(
    'carries the real datasets’ licences and URLs, and which cases can run here',
    async () => {
      const { out } = await run(['list', SHARED, '--json']);
      const cases = JSON.parse(out) as {
        name: string;
        runnable: boolean;
        missing: string[];
        datasets: { title: string; license: string; url: string }[];
      }[];
      const first = cases.find(c => c.name === 'NBspecific_1')!;
      expect(first.datasets[0]).toEqual({
        title: 'IMDB Dataset of 50K Movie Reviews',
        license: 'Allow academic research',
        url: 'https://www.kaggle.com/datasets/lakshmi25npathi/imdb-dataset-of-50k-movie-reviews'
      });
      expect(cases.every(c => c.datasets.length > 0)).toBe(true);
      // sklearn_3 is the one complete folder; sklearn_6 has notebooks, no data.
      expect(cases.filter(c => c.runnable).map(c => c.name)).toEqual([
        'sklearn_3'
      ]);
      expect(cases.find(c => c.name === 'sklearn_6')?.missing).toEqual([
        'data'
      ]);
      expect(cases.find(c => c.name === 'sklearn_5')?.missing).toEqual([
        'data',
        'fixed'
      ]);
      expect(first.missing).toEqual(['folder']);
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
