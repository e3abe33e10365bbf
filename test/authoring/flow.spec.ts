/**
 * The authoring workflows behind the commands (AuthoringFlow) against a real
 * Jupyter server with the server extension, a real CaseAuthor and a real
 * CasebookManager; the dialogs answer from a script and record what they were
 * asked. A new casebook is made and used; a crashed session is saved as a
 * case after a refused name and a declined replacement; a fix that still
 * crashes is refused and one that runs cleanly makes the case count.
 */
import { existsSync, writeFileSync } from 'fs';
import * as path from 'path';

import { ContentsManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';
import { nullTranslator } from '@jupyterlab/translation';

import { TRANSLATION_DOMAIN } from '../../src/i18n';
import { CaseAuthor } from '../../src/model/authoring';
import { AuthoringFlow } from '../../src/model/authoringFlow';
import type { ICaseDetails } from '../../src/model/authoringFlow';
import { CasebookManager } from '../../src/model/casebookManager';
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

/** The case form filled in with a name (and the files offered). */
function details(name: string, data: string[]): ICaseDetails {
  return {
    name,
    rootCause: 'NB specific',
    crashType: '',
    pipelineStage: '',
    mlBug: '',
    library: 'NBspecific',
    diagnosis: 'The side cell did not run first.',
    datasetTitle: '',
    datasetLicense: '',
    datasetUrl: '',
    data
  };
}

/** A question a scripted dialog was asked, and what it was asked with. */
type Asked =
  | ['askFolder']
  | ['editCase', AuthoringFlow.ICaseRequest]
  | ['confirmReplace', string, string]
  | ['chooseCase', string[]]
  | ['report', string, string]
  | ['inform', string, string[]];

/** Dialogs that answer from queues and log every question. */
class ScriptedDialogs implements AuthoringFlow.IDialogs {
  log: Asked[] = [];
  folders: Array<string | null> = [];
  forms: Array<ICaseDetails | null> = [];
  replaces: boolean[] = [];
  choices: Array<string | null> = [];

  /** The log so far, emptied. */
  take(): Asked[] {
    const log = this.log;
    this.log = [];
    return log;
  }

  async askFolder() {
    this.log.push(['askFolder']);
    return this.folders.shift() ?? null;
  }
  async editCase(request: AuthoringFlow.ICaseRequest) {
    // A copy: the flow keeps the request for the next showing.
    this.log.push(['editCase', { ...request }]);
    return this.forms.shift() ?? null;
  }
  async confirmReplace(title: string, body: string) {
    this.log.push(['confirmReplace', title, body]);
    return this.replaces.shift() ?? false;
  }
  async chooseCase(names: string[]) {
    this.log.push(['chooseCase', names]);
    return this.choices.shift() ?? null;
  }
  async report(title: string, message: string) {
    this.log.push(['report', title, message]);
  }
  async inform(title: string, lines: string[]) {
    this.log.push(['inform', title, lines]);
  }
}

describe('AuthoringFlow on a real server', () => {
  let fixture: IAuthoringServer;
  let dir: string;
  // Server paths of the casebook and the notebooks' folder, in the fixture's folder.
  let book: string;
  let work: string;
  let manager: CasebookManager;
  let dialogs: ScriptedDialogs;
  let flow: AuthoringFlow;

  beforeAll(async () => {
    fixture = await authoringServer('junobench-author-flow-');
    dir = fixture.dir;
    book = `${fixture.path}/book`;
    work = `${fixture.path}/work`;
    writeFileSync(path.join(dir, 'work', 'side.txt'), '3\n');
    const contents = new ContentsManager({
      serverSettings: fixture.server.settings
    });
    manager = new CasebookManager({
      contents,
      serverSettings: fixture.server.settings
    });
    dialogs = new ScriptedDialogs();
    flow = new AuthoringFlow({
      author: new CaseAuthor({
        serverSettings: fixture.server.settings,
        contents,
        sessions: fixture.sessions,
        timeoutMs: 60000
      }),
      manager,
      dialogs,
      trans: nullTranslator.load(TRANSLATION_DOMAIN)
    });
  });

  afterAll(() => fixture.stop());

  it('makes a casebook in the folder asked for and uses it; a second one there is refused', async () => {
    dialogs.folders.push(` /${book}/ `);
    expect(await flow.newCasebook()).toBe('created');
    expect(dialogs.take()).toEqual([['askFolder']]);
    expect(existsSync(path.join(dir, 'book', 'benchmark_desc.xlsx'))).toBe(
      true
    );
    expect(manager.path).toBe(book);
    expect(manager.casebook?.cases).toEqual([]);

    expect(await flow.newCasebook(book)).toBe('failed');
    const [report, ...rest] = dialogs.take();
    expect(rest).toEqual([]);
    expect(report.slice(0, 2)).toEqual([
      'report',
      'The casebook was not created'
    ]);
    expect(report[2]).toMatch(/already holds benchmark_desc\.xlsx/);
    expect(manager.path).toBe(book);
  });

  it('saves a crashed session as a case, then refuses a failing fix and counts a passing one', async () => {
    const cells: [string, number | null][] = [
      ["side = float(open('side.txt').read())", null],
      ['area = side ** 2', 1]
    ];
    const crashed = notebook([
      [cells[0][0], null],
      [cells[1][0], 1, true]
    ]);
    const session = await fixture.startSession(`${work}/square.ipynb`);
    const kernel = session.kernel as Kernel.IKernelConnection;
    const subject = {
      path: `${work}/square.ipynb`,
      notebook: () => crashed
    };
    try {
      await kernel.requestExecute({ code: cells[1][0], store_history: true })
        .done;

      // Nothing crashed in this notebook: nothing to save, nothing asked.
      expect(
        await flow.saveCase(
          { path: subject.path, notebook: () => notebook([['x = 1', 1]]) },
          kernel
        )
      ).toBe('failed');
      expect(dialogs.take().map(a => a.slice(0, 2))).toEqual([
        ['report', 'Nothing to save']
      ]);

      // An unsafe name is refused and the form comes back with the answer.
      const first = details('../x', ['side.txt']);
      dialogs.forms.push(first, details('NBspecific_1', ['side.txt']));
      expect(await flow.saveCase(subject, kernel)).toBe('draft');
      const log = dialogs.take();
      expect(log.map(a => a.slice(0, 2))).toEqual([
        ['editCase', expect.anything()],
        ['report', 'Choose another name'],
        ['editCase', expect.anything()],
        ['inform', 'JunoBench case saved as a draft']
      ]);
      expect(log[0][1]).toMatchObject({
        name: 'NBspecific_1',
        data: ['side.txt'],
        previous: null
      });
      expect(log[2][1]).toMatchObject({ previous: first });
      expect(log[1][2]).toMatch(/"\.\.\/x"/);
      expect((log[3][2] as string[])[0]).toMatch(
        /^NBspecific_1 is saved as a draft \(DRAFT\.md in its folder says why\): /
      );
      const folder = path.join(dir, 'book', 'benchmark', 'NBspecific_1');
      expect(existsSync(path.join(folder, 'side.txt'))).toBe(true);
      expect(existsSync(path.join(folder, 'DRAFT.md'))).toBe(true);
      expect(manager.find('NBspecific_1')).not.toBeNull();

      // The same name again: the author declines to replace it, then cancels.
      dialogs.forms.push(details('NBspecific_1', ['side.txt']), null);
      dialogs.replaces.push(false);
      expect(await flow.saveCase(subject, kernel)).toBe('cancelled');
      expect(dialogs.take().map(a => a.slice(0, 2))).toEqual([
        ['editCase', expect.anything()],
        ['confirmReplace', 'Replace case NBspecific_1?'],
        ['editCase', expect.anything()]
      ]);
    } finally {
      await session.shutdown();
    }

    // The notebook saved as the case: no question which case it fixes, and
    // the same crash again is no fix.
    expect(
      await flow.saveFix({
        path: `${work}/square.ipynb`,
        notebook: () => notebook([['area = side ** 2', 1]])
      })
    ).toBe('fix-refused');
    const refused = dialogs.take();
    expect(refused.map(a => a.slice(0, 2))).toEqual([
      ['report', 'The fix was not saved']
    ]);
    expect(refused[0][2]).toMatch(
      /^This notebook does not pass as the reference fix of NBspecific_1: /
    );
    expect(
      existsSync(
        path.join(dir, 'book/benchmark/NBspecific_1/NBspecific_1_fixed.ipynb')
      )
    ).toBe(false);

    // Another notebook: which case it fixes is asked; top to bottom it passes.
    dialogs.choices.push('NBspecific_1');
    expect(
      await flow.saveFix({
        path: `${work}/square-fixed.ipynb`,
        notebook: () => notebook(cells)
      })
    ).toBe('verified');
    const counted = dialogs.take();
    expect(counted.map(a => a.slice(0, 2))).toEqual([
      ['chooseCase', ['NBspecific_1']],
      ['inform', 'JunoBench case verified']
    ]);
    expect((counted[1][2] as string[])[0]).toBe(
      "Verified: NBspecific_1 crashes as recorded (NameError: name 'side' is not defined) and its reference fix passes. The case counts."
    );
    expect(
      existsSync(path.join(dir, 'book/benchmark/NBspecific_1/DRAFT.md'))
    ).toBe(false);
  });
});
