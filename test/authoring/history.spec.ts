/**
 * Authoring on a real kernel: cells run out of order and one twice, the case
 * recorded from the kernel's own input history, written, then reproduced as
 * recorded by `junobench verify`; and `junobench add`, verified or a draft,
 * with the inputs meant to fool it.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import * as path from 'path';

import type { KernelMessage } from '@jupyterlab/services';

import { fixedNotebook, recordFromHistory } from '../../src/authoring/record';
import { caseSpec } from '../../src/authoring/spec';
import { loadCasebook, MARKER_DRAFT } from '../../src/casebook';
import type { IServerHandle } from '../../src/cli/server';
import { newCasebook, writeCase } from '../../src/cli/writer';
import { readInputHistory } from '../../src/kernel/history';
import { recordedPlan, sourceText } from '../../src/replay/plan';
import type { INbCell, INbOutput, INotebookJSON } from '../../src/replay/types';
import { FsCasebookSource } from '../casebook/fsSource';
import { runCli, serverArgs } from '../cli/capture';
import { authoringServer } from './server';
import type { IAuthoringServer } from './server';

jest.setTimeout(240000);

/** The notebook's code cells, in document order. */
const CELLS = [
  'data = [1, 2, 3]',
  'total = 0',
  'total += sum(data)',
  'assert total == 6, f"total is {total}"'
];

/** A notebook of these cells (nbformat 4.4: no cell ids), as JupyterLab would save it. */
function notebookOf(
  runs: Map<number, { count: number; outputs: INbOutput[] }>
): INotebookJSON {
  const cells: INbCell[] = [
    { cell_type: 'markdown', metadata: {}, source: '# Totals' },
    ...CELLS.map((source, i): INbCell => ({
      cell_type: 'code',
      metadata: {},
      source,
      execution_count: runs.get(i)?.count ?? null,
      outputs: runs.get(i)?.outputs ?? []
    }))
  ];
  return {
    nbformat: 4,
    nbformat_minor: 4,
    metadata: {
      kernelspec: {
        name: 'python3',
        display_name: 'Python 3',
        language: 'python'
      }
    },
    cells
  };
}

describe('authoring a case on a real kernel', () => {
  let server: IServerHandle;
  let dir: string;
  let book: string;

  let fixture: IAuthoringServer;

  beforeAll(async () => {
    fixture = await authoringServer('junobench-author-');
    ({ dir, server } = fixture);
    book = path.join(dir, 'casebook');
    await newCasebook(book);
  });

  afterAll(() => fixture.stop());

  it('records the order from the kernel history (out of order, one cell twice) and verify reproduces it as recorded', async () => {
    const session = await fixture.startSession(
      `${fixture.path}/work/totals.ipynb`
    );
    const runs = new Map<number, { count: number; outputs: INbOutput[] }>();
    try {
      const kernel = session.kernel!;
      const run = async (i: number) => {
        const outputs: INbOutput[] = [];
        const future = kernel.requestExecute({
          code: CELLS[i],
          store_history: true
        });
        future.onIOPub = msg => {
          if (msg.header.msg_type === 'error') {
            const c = (msg as KernelMessage.IErrorMsg).content;
            outputs.push({
              output_type: 'error',
              ename: c.ename,
              evalue: c.evalue,
              traceback: c.traceback
            });
          }
        };
        const reply = await future.done;
        runs.set(i, {
          count: reply.content.execution_count as number,
          outputs
        });
      };
      // total = 0 before data = …, then the sum twice: the assert fails with 12.
      for (const i of [1, 0, 2, 2, 3]) {
        await run(i);
      }
      const nb = notebookOf(runs);
      const { history, count } = await readInputHistory(kernel);
      expect(count).toBe(6);
      expect(history.slice(1)).toEqual([1, 0, 2, 2, 3].map(i => CELLS[i]));

      const recording = recordFromHistory(nb, history);
      if (!recording.ok) {
        throw new Error(`not recorded: ${recording.problem.code}`);
      }
      expect(recording.notes).toEqual([]);
      expect(recording.reexecuted).toEqual([3]);
      expect(recording.target.ename).toBe('AssertionError');
      expect(recording.target.evalue).toBe('total is 12');
      // The planner reads the recorded order back from the written counts.
      const steps = recordedPlan(recording.reproduced).steps;
      expect(steps.map(s => [s.cellIndex, s.run])).toEqual([
        [2, 1],
        [1, 1],
        [3, 1],
        [3, 2],
        [4, 1]
      ]);
      expect(sourceText(recording.reproduced.cells[3])).toBe(
        '# [reexecute]\ntotal += sum(data)'
      );

      const spec = caseSpec({
        name: 'NBspecific_50',
        original: nb,
        reproduced: recording.reproduced,
        fixed: fixedNotebook(notebookOf(new Map())),
        target: recording.target,
        description: {
          labels: {
            rootCause: 'NB specific',
            crashType: 'assertion error',
            pipelineStage: 'data preparation',
            mlBug: 'not ML bug'
          },
          diagnosis: 'The sum ran twice.',
          datasets: []
        }
      });
      await writeCase(book, spec, path.join(dir, 'work'));
    } finally {
      await session.shutdown();
    }

    const verified = await runCli([
      'verify',
      book,
      '--cases',
      'NBspecific_50',
      ...serverArgs(server, fixture.server.root)
    ]);
    expect(verified.out.join('\n')).toMatch(
      /^NBspecific_50\s+pass\s+pass\s+pass/m
    );
    expect(verified.code).toBe(0);
  });

  it('junobench add verifies a case and clears its draft mark', async () => {
    const nbFile = path.join(dir, 'work', 'crash.ipynb');
    const nb = notebookOf(
      new Map([
        [1, { count: 1, outputs: [] }],
        [0, { count: 2, outputs: [] }],
        [2, { count: 3, outputs: [] }],
        [
          3,
          {
            count: 4,
            outputs: [
              {
                output_type: 'error',
                ename: 'AssertionError',
                evalue: 'total is 12',
                traceback: []
              }
            ]
          }
        ]
      ])
    );
    nb.cells[3].source = `# [reexecute]\n${sourceText(nb.cells[3])}`;
    writeFileSync(nbFile, JSON.stringify(nb));
    const fixedFile = path.join(dir, 'work', 'fixed.ipynb');
    writeFileSync(fixedFile, JSON.stringify(notebookOf(new Map())));
    const added = await runCli([
      'add',
      book,
      'NBspecific_51',
      '--reproduced',
      nbFile,
      '--fixed',
      fixedFile,
      '--label',
      'root_cause=NB specific',
      '--diagnosis',
      'Summed twice.',
      ...serverArgs(server, fixture.server.root)
    ]);
    expect(added.err).toEqual([]);
    expect(added.out[added.out.length - 1]).toMatch(
      /^Verified: NBspecific_51_reproduced\.ipynb crashes as recorded \(AssertionError: total is 12\)/
    );
    expect(added.code).toBe(0);
    const loaded = await loadCasebook(new FsCasebookSource(book));
    const c = loaded.cases.find(x => x.name === 'NBspecific_51')!;
    expect(c.rootCause).toBe('NB specific');
    expect(c.problems).not.toContain(MARKER_DRAFT);
  });

  it('junobench add keeps a case that does not reproduce as a draft that says why, and exits 1', async () => {
    const nbFile = path.join(dir, 'work', 'wrong.ipynb');
    // The recorded exception is not what the cell raises.
    const nb = notebookOf(
      new Map([
        [
          3,
          {
            count: 1,
            outputs: [
              {
                output_type: 'error',
                ename: 'KeyError',
                evalue: "'x'",
                traceback: []
              }
            ]
          }
        ]
      ])
    );
    writeFileSync(nbFile, JSON.stringify(nb));
    const added = await runCli([
      'add',
      book,
      'NBspecific_52',
      '--reproduced',
      nbFile,
      ...serverArgs(server, fixture.server.root)
    ]);
    expect(added.code).toBe(1);
    expect(added.out[added.out.length - 1]).toMatch(
      /^NBspecific_52 is saved as a draft \(benchmark\/NBspecific_52\/DRAFT\.md\): the reproduced notebook did not crash as recorded .*; it has no reference fix yet/
    );
    const draft = readFileSync(
      path.join(book, 'benchmark/NBspecific_52/DRAFT.md'),
      'utf8'
    );
    expect(draft).toMatch(/did not crash as recorded/);
    const listed = await runCli(['list', book]);
    expect(listed.out.join('\n')).toMatch(
      /NBspecific_52 .*\[draft: not verified \(see DRAFT\.md\)/
    );
  });

  it('junobench add takes a notebook without cell ids whose crash is in the last cell, with its data folder', async () => {
    // numpy_2 of the demo casebook: nbformat 4.4, no ids, crash in the last cell.
    const demo = path.resolve(
      __dirname,
      '../../demo/casebook/benchmark/numpy_2'
    );
    const reproduced = JSON.parse(
      readFileSync(path.join(demo, 'numpy_2_reproduced.ipynb'), 'utf8')
    ) as INotebookJSON;
    expect(reproduced.cells.some(c => c.id !== undefined)).toBe(false);
    const codeCells = reproduced.cells.filter(c => c.cell_type === 'code');
    expect(
      codeCells[codeCells.length - 1].outputs?.some(
        o => o.output_type === 'error'
      )
    ).toBe(true);
    const added = await runCli([
      'add',
      book,
      'numpy_50',
      '--reproduced',
      path.join(demo, 'numpy_2_reproduced.ipynb'),
      '--fixed',
      path.join(demo, 'numpy_2_fixed.ipynb'),
      '--data',
      'data',
      ...serverArgs(server, fixture.server.root)
    ]);
    expect(added.out[added.out.length - 1]).toMatch(
      /^Verified: numpy_50_reproduced\.ipynb crashes as recorded \(ValueError/
    );
    expect(added.code).toBe(0);
    const loaded = await loadCasebook(new FsCasebookSource(book));
    const c = loaded.cases.find(x => x.name === 'numpy_50')!;
    expect(c.files.data.length).toBeGreaterThan(0);
    expect(
      c.files.data.every(f => f.startsWith('benchmark/numpy_50/data/'))
    ).toBe(true);
  });

  it.each([
    [
      'a path traversal in the case name',
      ['../evil'],
      /The case name "\.\.\/evil" cannot be used: it has a "\.\." segment/
    ],
    [
      'a case name that exists',
      ['NBspecific_51'],
      /already has a case NBspecific_51 \(row \d+ of benchmark_desc\.xlsx\)/
    ],
    [
      'a notebook that did not crash',
      ['NBspecific_60', '--reproduced-clean'],
      /clean\.ipynb: No cell has an error output/
    ],
    [
      'a data path out of the notebook folder',
      ['NBspecific_61', '--data', '../secret.txt'],
      /case NBspecific_61: data path "\.\.\/secret\.txt" has a "\.\." segment/
    ],
    [
      'an unknown label key',
      ['NBspecific_62', '--label', 'colour=red'],
      /--label "colour=red": expected key=value/
    ]
  ])('junobench add refuses %s with exit 2', async (_, args, message) => {
    const nbFile = path.join(dir, 'work', 'bad.ipynb');
    const nb = notebookOf(
      new Map([
        [
          0,
          {
            count: 1,
            outputs: [
              { output_type: 'error', ename: 'E', evalue: '', traceback: [] }
            ]
          }
        ]
      ])
    );
    writeFileSync(nbFile, JSON.stringify(nb));
    const clean = path.join(dir, 'work', 'clean.ipynb');
    writeFileSync(clean, JSON.stringify(notebookOf(new Map())));
    const [name, ...rest] = args;
    const reproduced = rest[0] === '--reproduced-clean' ? clean : nbFile;
    const extra = rest[0] === '--reproduced-clean' ? [] : rest;
    const before = readFileSync(path.join(book, 'benchmark_desc.xlsx'));
    const run = await runCli([
      'add',
      book,
      name,
      '--reproduced',
      reproduced,
      ...extra,
      '--no-verify'
    ]);
    expect(run.code).toBe(2);
    expect(run.err.join('\n')).toMatch(message);
    expect(readFileSync(path.join(book, 'benchmark_desc.xlsx'))).toEqual(
      before
    );
    expect(existsSync(path.join(dir, 'evil'))).toBe(false);
  });
});
