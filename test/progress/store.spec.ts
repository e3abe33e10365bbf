import type { ReadonlyPartialJSONValue } from '@lumino/coreutils';
import { StateDB } from '@jupyterlab/statedb';

import { ProgressStore } from '../../src/progress/store';
import type { CaseStatus } from '../../src/tokens';

const T0 = new Date('2026-01-01T10:00:00Z');

/** A store over a state DB with a fixed clock, loaded. */
async function makeStore(
  state: StateDB = new StateDB(),
  casebook = 'demo'
): Promise<ProgressStore> {
  const store = new ProgressStore({ state, casebook, now: () => T0 });
  await store.ready;
  return store;
}

type Step =
  | { kind: 'crash' }
  | { kind: 'attempt'; passed: boolean }
  | { kind: 'hint'; step: number }
  | { kind: 'time'; ms: number };

/** Apply one step of a transition script. */
function apply(store: ProgressStore, step: Step): Promise<void> {
  switch (step.kind) {
    case 'crash':
      return store.markCrashed('NB_1');
    case 'attempt':
      return store.recordAttempt('NB_1', { passed: step.passed });
    case 'hint':
      return store.recordHint('NB_1', step.step);
    case 'time':
      return store.addTime('NB_1', step.ms);
  }
}

const crash: Step = { kind: 'crash' };
const fail: Step = { kind: 'attempt', passed: false };
const pass: Step = { kind: 'attempt', passed: true };

describe('ProgressStore', () => {
  describe('status transitions', () => {
    it.each<[string, Step[], CaseStatus]>([
      ['nothing recorded', [], 'not-started'],
      ['a crashed replay', [crash], 'crashed'],
      ['a failed attempt after a crash', [crash, fail], 'attempted'],
      ['a passed attempt after a failed one', [crash, fail, pass], 'solved'],
      ['a failed attempt without a crash', [fail], 'attempted'],
      ['a passed attempt straight away', [pass], 'solved'],
      [
        'a failed attempt after solving (solved is sticky)',
        [pass, fail],
        'solved'
      ],
      [
        'a crash after an attempt (never downgrades)',
        [fail, crash],
        'attempted'
      ],
      ['a crash after solving', [pass, crash], 'solved'],
      ['a second crash', [crash, crash], 'crashed'],
      [
        'hints and time alone',
        [
          { kind: 'hint', step: 1 },
          { kind: 'time', ms: 5 }
        ],
        'not-started'
      ]
    ])('%s gives %s', async (_label, steps, expected) => {
      const store = await makeStore();
      for (const step of steps) {
        await apply(store, step);
      }
      expect(store.statusOf('NB_1')).toBe(expected);
      expect(store.get('NB_1').status).toBe(expected);
    });
  });

  it('gives the empty progress for an unknown case', async () => {
    const store = await makeStore();
    expect(store.get('nope')).toEqual({
      status: 'not-started',
      attempts: [],
      hints: [],
      prediction: null,
      selfDiagnosis: null,
      revealedAt: null,
      timeSpentMs: 0
    });
    expect(store.all()).toEqual({});
  });

  it('keeps every attempt with its time, result, exception and snapshot', async () => {
    const store = await makeStore();
    await store.recordAttempt('NB_1', {
      passed: false,
      status: 'still-crashes',
      exception: 'NameError: x',
      snapshotPath: 'work/NB_1/attempt-1.ipynb'
    });
    await store.recordAttempt('NB_1', {
      passed: true,
      at: new Date('2026-01-02T00:00:00Z')
    });
    expect(store.get('NB_1').attempts).toEqual([
      {
        at: T0.toISOString(),
        passed: false,
        status: 'still-crashes',
        exception: 'NameError: x',
        snapshotPath: 'work/NB_1/attempt-1.ipynb'
      },
      {
        at: '2026-01-02T00:00:00.000Z',
        passed: true,
        status: null,
        exception: null,
        snapshotPath: null
      }
    ]);
  });

  it('counts each hint step once, sorted', async () => {
    const store = await makeStore();
    for (const step of [2, 0, 2, 1, 0]) {
      await store.recordHint('NB_1', step);
    }
    expect(store.get('NB_1').hints).toEqual([0, 1, 2]);
  });

  it('adds up time', async () => {
    const store = await makeStore();
    await store.addTime('NB_1', 1500);
    await store.addTime('NB_1', 2500);
    expect(store.get('NB_1').timeSpentMs).toBe(4000);
  });

  describe('self-diagnosis', () => {
    const labels = {
      rootCause: 'API misuse',
      crashType: 'value error',
      pipelineStage: 'training'
    };

    it('keeps the latest prediction with the hints open when it was saved', async () => {
      const store = await makeStore();
      await store.recordPrediction('NB_1', {
        rootCause: 'data confusion',
        crashType: null,
        pipelineStage: null
      });
      await store.recordHint('NB_1', 2);
      await store.recordPrediction('NB_1', {
        rootCause: 'API misuse',
        crashType: 'value error',
        pipelineStage: 'training'
      });
      expect(store.get('NB_1').prediction).toEqual({
        rootCause: 'API misuse',
        crashType: 'value error',
        pipelineStage: 'training',
        at: T0.toISOString(),
        hints: [2]
      });
      expect(store.get('NB_1').selfDiagnosis).toBeNull();
    });

    it('scores the prediction at the first reveal and freezes it', async () => {
      const store = await makeStore();
      await store.recordPrediction('NB_1', {
        rootCause: 'API misuse',
        crashType: 'key error',
        pipelineStage: 'training'
      });
      await store.recordReveal('NB_1', labels);
      const first = store.get('NB_1');
      expect(first.revealedAt).toBe(T0.toISOString());
      expect(first.selfDiagnosis).toMatchObject({
        correct: 2,
        total: 3,
        hinted: 0
      });
      await expect(
        store.recordPrediction('NB_1', {
          rootCause: 'API misuse',
          crashType: 'value error',
          pipelineStage: 'training'
        })
      ).rejects.toThrow(/locked.*reveal/);
      await store.recordReveal('NB_1', { ...labels, crashType: 'key error' });
      expect(store.get('NB_1')).toEqual(first);
    });

    it('scores nothing when the reveal comes before any prediction', async () => {
      const store = await makeStore();
      await store.recordReveal('NB_1', labels);
      expect(store.get('NB_1').selfDiagnosis).toBeNull();
      expect(store.get('NB_1').revealedAt).toBe(T0.toISOString());
      await expect(
        store.recordPrediction('NB_1', {
          rootCause: 'API misuse',
          crashType: null,
          pipelineStage: null
        })
      ).rejects.toThrow(ProgressStore.LockedError);
    });

    it('gives no point for an answer saved after its hint', async () => {
      const store = await makeStore();
      await store.recordHint('NB_1', 1);
      await store.recordPrediction('NB_1', {
        rootCause: 'API misuse',
        crashType: 'value error',
        pipelineStage: 'training'
      });
      await store.recordReveal('NB_1', labels);
      expect(store.get('NB_1').selfDiagnosis).toMatchObject({
        correct: 2,
        hinted: 1,
        total: 3
      });
    });
  });

  it.each<[string, (store: ProgressStore) => Promise<void>, RegExp]>([
    ['a negative hint step', s => s.recordHint('a', -1), /hint step/],
    ['a fractional hint step', s => s.recordHint('a', 1.5), /hint step/],
    ['negative time', s => s.addTime('a', -1), /non-negative/],
    ['infinite time', s => s.addTime('a', Infinity), /non-negative/],
    [
      'a prediction that is not text',
      s =>
        s.recordPrediction('a', {
          rootCause: 3 as unknown as string,
          crashType: null,
          pipelineStage: null
        }),
      /prediction\.rootCause: expected a string or null, got 3/
    ],
    [
      'an invalid attempt date',
      s => s.recordAttempt('a', { passed: false, at: new Date('nope') }),
      /not a date/
    ]
  ])('rejects %s and records nothing', async (_label, act, message) => {
    const store = await makeStore();
    await expect(act(store)).rejects.toThrow(message);
    expect(store.all()).toEqual({});
  });

  it('emits changed on a change but not on a no-op', async () => {
    const store = await makeStore();
    let count = 0;
    store.changed.connect(() => {
      count += 1;
    });
    await store.markCrashed('NB_1');
    await store.markCrashed('NB_1');
    await store.recordHint('NB_1', 1);
    await store.recordHint('NB_1', 1);
    await store.addTime('NB_1', 0);
    expect(count).toBe(2);
  });

  it('sums up statuses and the solved fraction', async () => {
    const store = await makeStore();
    await store.markCrashed('a');
    await store.recordAttempt('b', { passed: false });
    await store.recordAttempt('c', { passed: true });
    await store.recordAttempt('d', { passed: true });
    expect(store.summary(['a', 'b', 'c', 'd', 'e', 'c'])).toEqual({
      total: 5,
      notStarted: 1,
      crashed: 1,
      attempted: 1,
      solved: 2,
      fraction: 2 / 5
    });
    expect(store.summary([])).toEqual({
      total: 0,
      notStarted: 0,
      crashed: 0,
      attempted: 0,
      solved: 0,
      fraction: 0
    });
  });

  describe('persistence', () => {
    it('lets a second store over the same state DB see the progress', async () => {
      const state = new StateDB();
      const first = await makeStore(state);
      await first.markCrashed('NB_1');
      await first.recordAttempt('NB_1', {
        passed: false,
        exception: 'KeyError: "a"'
      });
      await first.recordHint('NB_1', 2);
      await first.recordPrediction('NB_1', {
        rootCause: 'API misuse',
        crashType: null,
        pipelineStage: 'training'
      });
      await first.recordReveal('NB_1', {
        rootCause: 'API misuse',
        crashType: 'value error',
        pipelineStage: 'data preparation'
      });
      await first.addTime('NB_1', 60000);

      const second = await makeStore(state);
      expect(second.all()).toEqual(first.all());
      expect(second.get('NB_1').selfDiagnosis?.correct).toBe(1);
      expect(second.statusOf('NB_1')).toBe('attempted');
    });

    it('emits changed once loaded when there is saved progress', async () => {
      const state = new StateDB();
      await (await makeStore(state)).markCrashed('NB_1');
      const second = new ProgressStore({ state, casebook: 'demo' });
      const emitted = new Promise<void>(resolve => {
        second.changed.connect(() => resolve());
      });
      await second.ready;
      await expect(emitted).resolves.toBeUndefined();
      second.dispose();
    });

    it('keeps two casebooks apart', async () => {
      const state = new StateDB();
      const demo = await makeStore(state, 'demo');
      const juno = await makeStore(state, 'JunoBench');
      await demo.recordAttempt('NB_1', { passed: true });
      await juno.markCrashed('NB_1');
      expect(demo.statusOf('NB_1')).toBe('solved');
      expect(juno.statusOf('NB_1')).toBe('crashed');
      expect((await makeStore(state, 'demo')).statusOf('NB_1')).toBe('solved');
      expect((await makeStore(state, 'JunoBench')).statusOf('NB_1')).toBe(
        'crashed'
      );
      expect(demo.key).not.toBe(juno.key);
    });

    it('uses the given namespace', async () => {
      const state = new StateDB();
      const store = new ProgressStore({
        state,
        casebook: 'demo',
        namespace: 'elsewhere'
      });
      await store.markCrashed('NB_1');
      expect(store.key).toBe('elsewhere:demo');
      expect(await state.fetch('elsewhere:demo')).toBeDefined();
      expect(
        await state.fetch(`${ProgressStore.DEFAULT_NAMESPACE}:demo`)
      ).toBeUndefined();
      store.dispose();
    });

    it('loses no change made concurrently, even before it is loaded', async () => {
      const state = new StateDB();
      const store = new ProgressStore({
        state,
        casebook: 'demo',
        now: () => T0
      });
      const changes: Promise<void>[] = [];
      for (let i = 0; i < 20; i++) {
        changes.push(store.recordHint(`NB_${i % 4}`, i));
        changes.push(store.addTime(`NB_${i % 4}`, 100));
        changes.push(store.recordAttempt(`NB_${i % 4}`, { passed: i === 19 }));
      }
      await Promise.all(changes);
      await store.flush();
      store.dispose();

      const reloaded = await makeStore(state);
      for (let c = 0; c < 4; c++) {
        const progress = reloaded.get(`NB_${c}`);
        expect(progress.hints).toHaveLength(5);
        expect(progress.timeSpentMs).toBe(500);
        expect(progress.attempts).toHaveLength(5);
      }
      expect(reloaded.statusOf('NB_3')).toBe('solved');
      expect(reloaded.statusOf('NB_0')).toBe('attempted');
    });

    it('keeps writes in order when the state DB is slow', async () => {
      const state = new StateDB();
      const saved: ReadonlyPartialJSONValue[] = [];
      const save = state.save.bind(state);
      let delay = 30;
      // Each write is slower than the one after it, so unserialised writes
      // would finish in reverse order and leave the oldest record behind.
      jest.spyOn(state, 'save').mockImplementation(async (id, value) => {
        const wait = (delay = Math.max(0, delay - 10));
        await new Promise(resolve => setTimeout(resolve, wait));
        saved.push(value);
        return save(id, value);
      });
      const store = await makeStore(state);
      const first = store.addTime('NB_1', 1);
      await Promise.resolve();
      const rest = [
        store.addTime('NB_1', 2),
        store.addTime('NB_1', 3),
        store.recordHint('NB_1', 7)
      ];
      await Promise.all([first, ...rest]);
      await store.flush();
      const reloaded = await makeStore(state);
      expect(reloaded.get('NB_1').timeSpentMs).toBe(6);
      expect(reloaded.get('NB_1').hints).toEqual([7]);
      expect(saved.length).toBeLessThanOrEqual(4);
    });

    it('rejects the change and flush when the state DB fails, then recovers', async () => {
      const state = new StateDB();
      const store = await makeStore(state);
      const spy = jest
        .spyOn(state, 'save')
        .mockRejectedValueOnce(new Error('disk full'));
      await expect(store.markCrashed('NB_1')).rejects.toThrow('disk full');
      await expect(store.flush()).rejects.toThrow('disk full');
      spy.mockRestore();
      await store.addTime('NB_1', 10);
      await expect(store.flush()).resolves.toBeUndefined();
      const reloaded = await makeStore(state);
      expect(reloaded.statusOf('NB_1')).toBe('crashed');
      expect(reloaded.get('NB_1').timeSpentMs).toBe(10);
    });

    it('drops unreadable saved cases and keeps the readable ones', async () => {
      const state = new StateDB();
      await state.save(`${ProgressStore.DEFAULT_NAMESPACE}:demo`, {
        version: 1,
        cases: {
          good: {
            status: 'crashed',
            attempts: [],
            hints: [],
            selfDiagnosis: null,
            timeSpentMs: 0
          },
          bad: { status: 'exploded' }
        }
      });
      const store = await makeStore(state);
      expect(store.statusOf('good')).toBe('crashed');
      expect(Object.keys(store.all())).toEqual(['good']);
    });

    it('starts empty over a saved value of another shape', async () => {
      const state = new StateDB();
      await state.save(`${ProgressStore.DEFAULT_NAMESPACE}:demo`, [1, 2]);
      const store = await makeStore(state);
      expect(store.all()).toEqual({});
    });
  });

  it('returns copies the caller cannot use to change the store', async () => {
    const store = await makeStore();
    await store.recordHint('NB_1', 1);
    const copy = store.get('NB_1');
    (copy.hints as number[]).push(9);
    expect(store.get('NB_1').hints).toEqual([1]);
  });

  it('ignores changes after disposal', async () => {
    const store = await makeStore();
    store.dispose();
    expect(store.isDisposed).toBe(true);
    await store.markCrashed('NB_1');
    expect(store.statusOf('NB_1')).toBe('not-started');
  });
});
