/**
 * CasebookModel, the model behind the side panel's wiring, over a real
 * catalogue, a real progress tracker and a real StateDB: the workshop's
 * playlist is listed in its order, the "Runnable here" choice starts from the
 * casebook and is remembered per casebook, the fetch source is asked once
 * per casebook, a stale answer is dropped and the server's reason is worded
 * through the translation function, a fetched case reloads only the
 * casebook it was fetched into, and a README is read only for a case folder.
 * The list's own state lives here too: open cards, the current row, the page
 * limit (back to one page on a new query), a README read once per case, how
 * each fetch stands, the backup and the reveal's labels, each change said
 * on `stateChanged`.
 */
import type { Contents } from '@jupyterlab/services';
import { StateDB } from '@jupyterlab/statedb';
import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';

import type { ICase, ICasebook } from '../../src/casebook/types';
import type {
  IFetchSourceState,
  IFetchState
} from '../../src/model/caseFetcher';
import { english } from '../../src/i18n';
import { CatalogueModel } from '../../src/model/catalogue';
import { CasebookModel } from '../../src/model/casebookModel';
import type { ServerProblem } from '../../src/model/serverProblems';
import { ProgressTracker } from '../../src/progress/tracker';
import { PAGE } from '../../src/model/panelLogic';
import type { IActiveWorkshop, IWorkshopManager } from '../../src/tokens';
import type { IWorkshop } from '../../src/workshop/workshop';
import { caseRecord } from '../casebook/fixtures';
import { MemoryManager, ScriptedFetcher } from './fakes';

/** A case that can run here (a folder with its reproduced notebook). */
const runnable = (name: string): ICase =>
  caseRecord(name, {
    files: {
      folder: `benchmark/${name}`,
      original: true,
      reproduced: true,
      fixed: true,
      readme: true,
      data: []
    }
  });

/** A case with no folder here. */
const absent = (name: string): ICase => caseRecord(name);

/** A casebook of cases. */
const book = (name: string, cases: ICase[]): ICasebook => ({
  name,
  root: name,
  cases,
  problems: [],
  hasDiagnoses: false
});

/** A workshop manager with a workshop already active. */
function activeWorkshop(workshop: Partial<IWorkshop>): IWorkshopManager {
  const active: IActiveWorkshop = {
    path: 'w.junobench-workshop.json',
    startedAt: '2026-12-01T10:00:00Z',
    workshop: {
      title: 'Intro',
      description: null,
      cases: [],
      revealPolicy: 'after-pass',
      timeBoxMinutes: null,
      casebook: null,
      ...workshop
    }
  };
  const workshops: IWorkshopManager = {
    active,
    revealPolicy: active.workshop.revealPolicy,
    get changed() {
      return changed;
    },
    open: async () => active,
    leave: async () => undefined
  };
  const changed = new Signal<IWorkshopManager, void>(workshops);
  return workshops;
}

/** What the server says of fetching (the other fields of the state are null). */
const sourceState = (
  source: string | null,
  fetchable: boolean,
  reason: ServerProblem | null
) =>
  ({
    allowed: true,
    fetchable,
    source,
    reason,
    failure: null
  }) as IFetchSourceState;

/** Let promise callbacks run. */
const settle = () => new Promise(resolve => setTimeout(resolve, 0));

/** Contents that serve READMEs and record what was read. */
function readmes(files: Record<string, string>) {
  const read: string[] = [];
  const contents: CasebookModel.Reader = {
    get: async (path: string) => {
      read.push(path);
      if (!(path in files)) {
        throw new Error(`no file ${path}`);
      }
      return { content: files[path] } as Contents.IModel;
    }
  };
  return { contents, read };
}

describe('CasebookModel', () => {
  let manager: MemoryManager;
  let fetcher: ScriptedFetcher;
  let catalogue: CatalogueModel;

  beforeEach(() => {
    manager = new MemoryManager({
      sparse: book('sparse', [absent('a_1'), absent('a_2'), runnable('a_3')]),
      full: book('full', [runnable('b_1'), runnable('b_2'), absent('b_3')])
    });
    fetcher = new ScriptedFetcher();
    catalogue = new CatalogueModel();
  });

  /** Actions over the shared parts plus `more`. */
  const make = (more: Partial<CasebookModel.IOptions> = {}) =>
    new CasebookModel({
      manager,
      catalogue,
      fetcher,
      contents: readmes({}).contents,
      ...more
    });

  it('emits nothing before start, then the headline of the casebook', async () => {
    await manager.load('full');
    const actions = make();
    const headlines: CasebookModel.IHeadline[] = [];
    actions.headlineChanged.connect((_, h) => headlines.push(h));
    await manager.load('nowhere');
    expect(headlines).toEqual([]);
    actions.start();
    await manager.load('full');
    expect(headlines).toEqual([
      { loading: false, error: 'no casebook at nowhere' },
      { loading: false, error: null }
    ]);
    actions.dispose();
  });

  it("lists a workshop's cases in its order and says which are missing", async () => {
    await manager.load('full');
    const workshops = activeWorkshop({
      cases: ['b_3', 'zz_9', 'b_1'],
      revealPolicy: 'never',
      timeBoxMinutes: 30
    });
    const actions = make({ workshops, now: () => 0 });
    const shown: Array<CasebookModel.IWorkshopView | null> = [];
    actions.workshopChanged.connect((_, w) => shown.push(w));
    actions.start();
    expect(catalogue.casebook?.cases.map(c => c.name)).toEqual(['b_3', 'b_1']);
    expect(shown).toEqual([
      {
        title: 'Intro',
        description: null,
        revealPolicy: 'never',
        endsAt: Date.parse('2026-12-01T10:30:00Z'),
        missing: ['zz_9']
      }
    ]);
    actions.dispose();
  });

  it('counts progress over the cases listed, and again when a status changes', async () => {
    await manager.load('full');
    const statuses = new ProgressTracker({ state: new StateDB() });
    statuses.setCasebook('full');
    const actions = make({
      statuses,
      workshops: activeWorkshop({ cases: ['b_1', 'b_2'] })
    });
    const progress: CasebookModel.Progress[] = [];
    actions.progressChanged.connect((_, p) => progress.push(p));
    actions.start();
    expect(progress.map(p => [p.total, p.crashed])).toEqual([[2, 0]]);
    await statuses.markCrashed('b_2');
    await settle();
    expect(progress[progress.length - 1]).toMatchObject({
      total: 2,
      crashed: 1
    });
    // The status filter's counts follow the tracker too.
    expect(catalogue.statusFacet.map(v => [v.value, v.count]).sort()).toEqual([
      ['crashed', 1],
      ['not-started', 1]
    ]);
    actions.dispose();
  });

  it.each([
    ['sparse', true],
    ['full', false]
  ])(
    'starts "Runnable here" on %s as mostly-incomplete says (%s)',
    async (path, on) => {
      await manager.load(path);
      const actions = make({ state: new StateDB() });
      actions.start();
      await settle();
      expect(catalogue.query.runnableOnly ?? false).toBe(on);
      actions.dispose();
    }
  );

  it('remembers the learner\'s "Runnable here" choice per casebook, not a search', async () => {
    const state = new StateDB();
    await manager.load('sparse');
    const first = make({ state });
    first.start();
    await settle();
    expect(catalogue.query.runnableOnly).toBe(true);
    // A keystroke in the search is no choice.
    catalogue.setText('a_');
    await settle();
    expect(await state.fetch('jupyterlab-junobench:runnable-only')).toBe(
      undefined
    );
    catalogue.setRunnableOnly(false);
    await settle();
    expect(await state.fetch('jupyterlab-junobench:runnable-only')).toEqual({
      sparse: false
    });
    first.dispose();

    // A later page: the remembered choice wins over the default, per casebook.
    catalogue = new CatalogueModel();
    const second = make({ state });
    second.start();
    await settle();
    expect(catalogue.query.runnableOnly ?? false).toBe(false);
    await manager.load('full');
    await settle();
    expect(catalogue.query.runnableOnly ?? false).toBe(false);
    await manager.load('sparse');
    await settle();
    expect(catalogue.query.runnableOnly ?? false).toBe(false);
    second.dispose();
  });

  it('asks about fetching once per casebook and drops a stale answer', async () => {
    await manager.load('sparse');
    const actions = make();
    const sources: Array<CasebookModel.IFetchSource | null> = [];
    actions.fetchSourceChanged.connect((_, s) => sources.push(s));
    actions.start();
    const stale = fetcher.sourceAnswer;
    fetcher.sourceAnswer = new PromiseDelegate();
    await manager.load('sparse');
    expect(fetcher.sources).toEqual(['sparse']);
    await manager.load('full');
    expect(fetcher.sources).toEqual(['sparse', 'full']);
    // The sparse casebook's answer arrives after the learner moved on.
    stale.resolve(sourceState('https://example.org/junobench', true, null));
    await settle();
    expect(sources).toEqual([null, null]);
    fetcher.sourceAnswer.resolve(
      sourceState('https://example.org/junobench', false, { code: 'fetch-off' })
    );
    await settle();
    expect(sources).toEqual([
      null,
      null,
      {
        allowed: true,
        fetchable: false,
        source: 'https://example.org/junobench',
        reason:
          'Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).'
      }
    ]);
    actions.dispose();
  });

  it("words the server's reason through the translation function", async () => {
    await manager.load('sparse');
    const actions = make({
      translate: (msgid, ...args) => english(msgid.toUpperCase(), ...args)
    });
    const sources: Array<CasebookModel.IFetchSource | null> = [];
    actions.fetchSourceChanged.connect((_, s) => sources.push(s));
    actions.start();
    fetcher.sourceAnswer.resolve(
      sourceState('https://example.org/junobench', false, { code: 'fetch-off' })
    );
    await settle();
    expect(sources[1]?.reason).toBe(
      'FETCHING CASES IS TURNED OFF ON THIS SERVER (C.JUNOBENCHEXTENSION.ALLOW_FETCH).'
    );
    actions.dispose();
  });

  it('says nothing of fetching for a casebook that is not a sparse copy', async () => {
    await manager.load('full');
    const actions = make();
    const sources: Array<CasebookModel.IFetchSource | null> = [];
    actions.fetchSourceChanged.connect((_, s) => sources.push(s));
    actions.start();
    fetcher.sourceAnswer.resolve(
      sourceState(null, false, { code: 'not-fetched-copy', path: 'full' })
    );
    await settle();
    expect(sources).toEqual([null, null]);
    actions.dispose();
  });

  it.each<[string, IFetchState['state'], string | null, string[]]>([
    ['a done fetch reloads the casebook', 'done', null, ['sparse', 'sparse']],
    ['a failed fetch reloads nothing', 'failed', null, ['sparse']],
    [
      'a fetch done after the learner moved on reloads nothing',
      'done',
      'full',
      ['sparse', 'full']
    ]
  ])('%s', async (_, state, moveTo, loads) => {
    await manager.load('sparse');
    const actions = make();
    actions.start();
    const fetched: string[] = [];
    actions.fetched.connect((__, name) => fetched.push(name));
    const done = actions.fetchCase('a_1');
    expect(fetcher.fetches).toEqual([['sparse', 'a_1']]);
    if (moveTo) {
      await manager.load(moveTo);
    }
    fetcher.fetchAnswer.resolve({
      state,
      percent: null,
      detail: '',
      error: null
    });
    await done;
    expect(manager.loads).toEqual(loads);
    expect(fetched).toEqual(state === 'done' && moveTo === null ? ['a_1'] : []);
    actions.dispose();
  });

  it("reads a case's README for its card, never a case without a folder", async () => {
    await manager.load('sparse');
    const { contents, read } = readmes({
      'sparse/benchmark/a_3/README.md':
        '# a_3\n\nA model that never converges.\n\n## Crash\n\nKeyError in fit.\n'
    });
    const actions = make({ contents });
    expect(await actions.describe(manager.find('a_1')!)).toBeNull();
    expect(read).toEqual([]);
    const text = await actions.describe(manager.find('a_3')!);
    expect(read).toEqual(['sparse/benchmark/a_3/README.md']);
    expect(text).toContain('never converges');
    expect(text).not.toContain('KeyError');
    actions.dispose();
  });

  it('follows nothing once disposed', async () => {
    await manager.load('full');
    const actions = make();
    let emitted = 0;
    actions.headlineChanged.connect(() => emitted++);
    actions.start();
    expect(emitted).toBe(1);
    actions.dispose();
    await manager.load('sparse');
    expect(emitted).toBe(1);
    expect(fetcher.sources).toEqual(['full']);
    expect(catalogue.casebook?.name).toBe('full');
  });

  it("keeps the list's own state: open cards, the current row and the page", async () => {
    await manager.load('full');
    const model = make();
    model.start();
    let changes = 0;
    model.stateChanged.connect(() => changes++);
    const b1 = manager.find('b_1')!;
    expect(model.rowState(b1).expanded).toBe(false);
    model.toggle('b_1');
    expect(model.rowState(b1).expanded).toBe(true);
    expect(model.rowState(manager.find('b_2')!).expanded).toBe(false);
    model.toggle('b_1');
    expect(model.rowState(b1).expanded).toBe(false);
    model.setCurrent('b_2');
    model.setCurrent('b_2');
    expect(model.current).toBe('b_2');
    expect(changes).toBe(3);
    model.showMore();
    model.showMore();
    expect(model.limit).toBe(3 * PAGE);
    // A new query starts the list at its first page again.
    catalogue.setText('b');
    expect(model.limit).toBe(PAGE);
    const generation = model.generation;
    model.invalidate();
    expect(model.generation).toBe(generation + 1);
    model.dispose();
  });

  it("reads a case's README once for its card, and says when it is read", async () => {
    await manager.load('sparse');
    const { contents, read } = readmes({
      'sparse/benchmark/a_3/README.md':
        '# a_3\n\nA model that never converges.\n'
    });
    const model = make({ contents });
    const a3 = manager.find('a_3')!;
    expect(model.rowState(a3).description).toBeUndefined();
    // A case without a README has nothing to read.
    const noReadme = { ...a3, files: { ...a3.files, readme: false } };
    expect(model.rowState(noReadme).description).toBeNull();
    const changed = new PromiseDelegate<void>();
    let changes = 0;
    model.stateChanged.connect(() => {
      changes++;
      changed.resolve();
    });
    model.requestDescription(a3);
    model.requestDescription(a3);
    expect(model.rowState(a3).description).toBeUndefined();
    await changed.promise;
    expect(model.rowState(a3).description).toContain('never converges');
    model.requestDescription(a3);
    expect(read).toEqual(['sparse/benchmark/a_3/README.md']);
    expect(changes).toBe(1);
    // A README that cannot be read leaves the card without a description.
    const a1 = runnable('a_1');
    model.requestDescription(a1);
    await settle();
    expect(model.rowState(a1).description).toBe('');
    model.dispose();
  });

  it('follows how a fetch stands until the casebook is reloaded with the case', async () => {
    await manager.load('sparse');
    const model = make();
    model.start();
    const a1 = manager.find('a_1')!;
    expect(model.rowState(a1).fetch).toBeNull();
    const done = model.fetchCase('a_1');
    expect(model.rowState(a1).fetch?.state).toBe('running');
    expect(model.rowState(manager.find('a_2')!).fetch).toBeNull();
    fetcher.fetchAnswer.resolve({
      state: 'done',
      percent: 100,
      detail: '',
      error: null
    });
    await done;
    expect(model.rowState(manager.find('a_1')!).fetch).toBeNull();
    model.dispose();
  });

  it('keeps a failed fetch on its row, with its reason', async () => {
    await manager.load('sparse');
    const model = make();
    model.start();
    const done = model.fetchCase('a_2');
    fetcher.fetchAnswer.resolve({
      state: 'failed',
      percent: null,
      detail: '',
      error: { code: 'unreachable', detail: 'down' }
    } as IFetchState);
    await done;
    expect(model.rowState(manager.find('a_2')!).fetch).toMatchObject({
      state: 'failed',
      error: { code: 'unreachable' }
    });
    model.dispose();
  });

  it("shows a case's labels as the reveal says, and renders every row again when it changes", async () => {
    await manager.load('full');
    const changed = new Signal<unknown, void>({});
    const open = new Set(['b_1']);
    const model = make({
      revealer: {
        state: name => ({
          canReveal: open.has(name),
          canGiveUp: false,
          why: `not yet for ${name}`
        }),
        changed
      }
    });
    const row = (name: string) => model.rowState(manager.find(name)!);
    expect([row('b_1').labelsOpen, row('b_1').labelsWhy]).toEqual([true, '']);
    expect([row('b_2').labelsOpen, row('b_2').labelsWhy]).toEqual([
      false,
      'not yet for b_2'
    ]);
    const generation = model.generation;
    open.add('b_2');
    changed.emit();
    expect(model.generation).toBe(generation + 1);
    expect(row('b_2').labelsOpen).toBe(true);
    model.dispose();
    changed.emit();
    expect(model.generation).toBe(generation + 1);
  });

  it("says how the progress backup stands, from the tracker's", async () => {
    await manager.load('full');
    expect(make().backup).toBeNull();
    const statuses = new ProgressTracker({ state: new StateDB() });
    const model = make({ statuses });
    let changes = 0;
    model.stateChanged.connect(() => changes++);
    statuses.setCasebook('full');
    expect(changes).toBeGreaterThan(0);
    expect(model.backup).toEqual(statuses.backupState);
    expect(model.backup).toMatchObject({ pending: false, error: null });
    model.dispose();
  });
});
