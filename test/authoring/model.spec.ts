/**
 * The authoring model JupyterLab uses (CaseAuthor), against a real Jupyter
 * server with the server extension: it records a session, offers the input
 * files, writes through `POST /junobench/authoring/*`, and settles a case:
 * a failing fix is refused and nothing is written, a passing one counts.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import * as path from 'path';

import { ContentsManager } from '@jupyterlab/services';

import { fixedNotebook } from '../../src/authoring/record';
import { caseSpec } from '../../src/authoring/spec';
import { loadLocalCasebook } from '../../src/cli/verify';
import { CaseAuthor } from '../../src/model/authoring';
import type { INbCell, INotebookJSON } from '../../src/replay/types';
import { authoringServer } from './server';
import type { IAuthoringServer } from './server';

jest.setTimeout(240000);

/** A notebook of code cells given as [source, count, raised?]. */
function notebook(cells: [string, number | null, boolean?][]): INotebookJSON {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: cells.map(([source, count, raised], i): INbCell => ({
      cell_type: 'code',
      id: `c${i}`,
      metadata: {},
      source,
      execution_count: count,
      outputs: raised
        ? [
            {
              output_type: 'error',
              ename: 'NameError',
              evalue: "name 'side' is not defined",
              traceback: []
            }
          ]
        : []
    }))
  };
}

describe('CaseAuthor on a real server', () => {
  let fixture: IAuthoringServer;
  let dir: string;
  // Server paths of the casebook and the notebooks' folder, in the fixture's folder.
  let book: string;
  let work: string;
  let author: CaseAuthor;

  beforeAll(async () => {
    fixture = await authoringServer('junobench-author-model-');
    dir = fixture.dir;
    book = `${fixture.path}/book`;
    work = `${fixture.path}/work`;
    writeFileSync(path.join(dir, 'work', 'side.txt'), '3\n');
    author = new CaseAuthor({
      serverSettings: fixture.server.settings,
      contents: new ContentsManager({
        serverSettings: fixture.server.settings
      }),
      sessions: fixture.sessions,
      timeoutMs: 60000
    });
  });

  afterAll(() => fixture.stop());

  it('records, writes, refuses a failing fix and counts a passing one', async () => {
    await author.newCasebook(book);
    await expect(author.newCasebook(book)).rejects.toThrow(
      /already holds benchmark_desc\.xlsx/
    );

    // A live session: the area cell ran before the side cell.
    const cells: [string, number | null][] = [
      ["side = float(open('side.txt').read())", null],
      ['area = side ** 2', 1]
    ];
    const session = await fixture.startSession(`${work}/square.ipynb`);
    const nb = notebook([
      [cells[0][0], null],
      [cells[1][0], 1, true]
    ]);
    try {
      await session.kernel!.requestExecute({
        code: cells[1][0],
        store_history: true
      }).done;
      expect(await author.inputFiles(work, nb)).toEqual(['side.txt']);
      const recording = await author.record(session.kernel!, nb);
      if (!recording.ok) {
        throw new Error(recording.problem.code);
      }
      expect(recording.plan.steps.map(s => s.cellIndex)).toEqual([1]);
      await author.writeCase(
        book,
        work,
        caseSpec({
          name: 'NBspecific_1',
          original: nb,
          reproduced: recording.reproduced,
          target: recording.target,
          data: ['side.txt'],
          description: {
            labels: {
              rootCause: 'NB specific',
              crashType: '',
              pipelineStage: '',
              mlBug: ''
            },
            diagnosis: '',
            datasets: []
          }
        })
      );
    } finally {
      await session.shutdown();
    }
    await expect(
      author.writeCase(book, '', {
        ...caseSpec({
          name: '../x',
          original: nb,
          reproduced: nb,
          target: { ...recordingTarget(), cellIndex: 1 },
          description: {
            labels: {
              rootCause: '',
              crashType: '',
              pipelineStage: '',
              mlBug: ''
            },
            diagnosis: '',
            datasets: []
          }
        })
      })
    ).rejects.toThrow(
      /case name "\.\.\/x" cannot be used: it has a "\.\." segment/
    );

    const bookDir = path.join(dir, 'book');
    const folder = path.join(bookDir, 'benchmark/NBspecific_1');
    const c = () =>
      loadLocalCasebook(bookDir).then(b =>
        b.cases.find(x => x.name === 'NBspecific_1')!
      );

    // The same crash again is no fix: refused, nothing written.
    const refused = await author.settle(
      book,
      await c(),
      fixedNotebook(notebook([['area = side ** 2', 1]]))
    );
    expect(refused.kind).toBe('fix-refused');
    expect(refused.verification.reproduced.verdict).toBe('pass');
    expect(existsSync(path.join(folder, 'NBspecific_1_fixed.ipynb'))).toBe(
      false
    );
    expect(existsSync(path.join(folder, 'DRAFT.md'))).toBe(true);

    // Top to bottom, with the copied input, is the fix: the case counts.
    const counted = await author.settle(book, await c(), fixedNotebook(nb));
    expect(counted).toMatchObject({ kind: 'marked', draft: null });
    expect(
      JSON.parse(
        readFileSync(path.join(folder, 'NBspecific_1_fixed.ipynb'), 'utf8')
      ).cells.map((cell: INbCell) => cell.execution_count)
    ).toEqual([1, 2]);
    expect(existsSync(path.join(folder, 'DRAFT.md'))).toBe(false);
  });
});

/** A recorded crash for specs that never reach the writer's checks. */
function recordingTarget() {
  return {
    cellIndex: 0,
    codeCellIndex: 0,
    ename: 'NameError',
    evalue: 'x',
    traceback: [],
    line: null
  };
}
