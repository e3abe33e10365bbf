import { StateDB } from '@jupyterlab/statedb';

import { ProgressTracker } from '../../src/progress/tracker';

describe('ProgressTracker', () => {
  it('follows the current casebook and keeps each one apart', async () => {
    const state = new StateDB();
    const tracker = new ProgressTracker({ state });
    expect(tracker.statusOf('numpy_1')).toBe('not-started');
    await tracker.markCrashed('numpy_1'); // no casebook yet: nothing kept

    tracker.setCasebook('demo');
    await tracker.store!.ready;
    await tracker.markCrashed('numpy_1');
    await tracker.recordHint('numpy_1', 2);
    expect(tracker.statusOf('numpy_1')).toBe('crashed');
    expect(tracker.get('numpy_1')?.hints).toEqual([2]);

    tracker.setCasebook('other');
    await tracker.store!.ready;
    expect(tracker.statusOf('numpy_1')).toBe('not-started');
    await tracker.recordAttempt('numpy_1', { passed: true });
    expect(tracker.summary(['numpy_1', 'pandas_1'])).toMatchObject({
      total: 2,
      solved: 1,
      notStarted: 1
    });

    tracker.setCasebook('demo');
    await tracker.store!.ready;
    expect(tracker.statusOf('numpy_1')).toBe('crashed');
  });

  it('signals changes', async () => {
    const tracker = new ProgressTracker({ state: new StateDB() });
    let seen = 0;
    tracker.changed.connect(() => seen++);
    tracker.setCasebook('demo');
    await tracker.store!.ready;
    const before = seen;
    await tracker.markCrashed('pandas_1');
    expect(seen).toBeGreaterThan(before);
  });
});
