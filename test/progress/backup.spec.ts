import { StateDB } from '@jupyterlab/statedb';

import { ProgressBackup } from '../../src/progress/backup';
import type { IProgressFile } from '../../src/progress/backup';
import { fromJSON, toJSON } from '../../src/progress/export';
import { ProgressStore } from '../../src/progress/store';
import { ProgressTracker } from '../../src/progress/tracker';
import { emptyProgress } from '../../src/progress/types';
import type { ICaseProgress } from '../../src/progress/types';

const T0 = new Date('2026-01-01T10:00:00Z');

/**
 * A progress file kept in memory, which can be made unreachable (as a server
 * that is down) and counts its writes.
 */
class MemoryFile implements IProgressFile {
  constructor(public text: string | null = null) {}
  readonly path = 'junobench-work/demo/progress.json';
  down = false;
  writes = 0;
  async read(): Promise<string | null> {
    if (this.down) {
      throw new TypeError('Failed to fetch');
    }
    return this.text;
  }
  async write(text: string): Promise<void> {
    if (this.down) {
      throw new TypeError('Failed to fetch');
    }
    this.writes += 1;
    this.text = text;
  }
  cases(): Record<string, ICaseProgress> {
    return this.text === null ? {} : fromJSON(this.text).cases;
  }
}

/** A sleep that waits for the test to let it go, recording each delay. */
class Sleeper {
  delays: number[] = [];
  private _release: (() => void)[] = [];
  sleep = (ms: number): Promise<void> => {
    this.delays.push(ms);
    return new Promise(resolve => this._release.push(resolve));
  };
  /** Let every waiting sleep end, then let the backup run on. */
  async wake(): Promise<void> {
    const release = this._release.splice(0);
    release.forEach(r => r());
    await new Promise(resolve => setTimeout(resolve, 0));
  }
  get waiting(): number {
    return this._release.length;
  }
}

const hinted = (...hints: number[]): ICaseProgress => ({
  ...emptyProgress(),
  hints
});

/** Let queued promise callbacks run. */
const settle = () => new Promise(resolve => setTimeout(resolve, 0));

describe('ProgressBackup', () => {
  it('writes the progress in the export format, so the cohort report reads it', async () => {
    const file = new MemoryFile();
    const backup = new ProgressBackup({
      file,
      casebook: 'demo',
      now: () => T0
    });
    backup.save({ NB_1: hinted(0) });
    expect(backup.pending).toBe(true);
    await backup.saved();
    expect(backup.pending).toBe(false);
    const read = fromJSON(file.text!);
    expect(read.casebook).toBe('demo');
    expect(read.exportedAt).toBe(T0.toISOString());
    expect(read.cases.NB_1.hints).toEqual([0]);
  });

  it('writes only the latest of the changes queued while a write runs', async () => {
    const file = new MemoryFile();
    const backup = new ProgressBackup({ file, casebook: 'demo' });
    backup.save({ NB_1: hinted(0) });
    backup.save({ NB_1: hinted(0, 1) });
    backup.save({ NB_1: hinted(0, 1, 2) });
    await backup.saved();
    expect(file.writes).toBeLessThanOrEqual(2);
    expect(file.cases().NB_1.hints).toEqual([0, 1, 2]);
  });

  it('retries a write the server refused, with growing waits, until it is back', async () => {
    const file = new MemoryFile();
    const sleeper = new Sleeper();
    const backup = new ProgressBackup({
      file,
      casebook: 'demo',
      retryDelaysMs: [10, 20, 40],
      sleep: sleeper.sleep
    });
    const states: string[] = [];
    backup.stateChanged.connect(() =>
      states.push(`${backup.pending}/${backup.error !== null}`)
    );
    file.down = true;
    backup.save({ NB_1: hinted(0) });
    await settle();
    expect(backup.error).toBe(
      'junobench-work/demo/progress.json: Failed to fetch'
    );
    // Changes made during the outage join the one waiting.
    backup.save({ NB_1: hinted(0, 1), NB_2: hinted(3) });
    for (let i = 0; i < 4; i++) {
      await sleeper.wake();
    }
    expect(sleeper.delays).toEqual([10, 20, 40, 40, 40]);
    expect(file.writes).toBe(0);
    expect(backup.pending).toBe(true);
    file.down = false;
    await sleeper.wake();
    await backup.saved();
    expect(backup.error).toBeNull();
    expect(backup.pending).toBe(false);
    expect(file.cases().NB_1.hints).toEqual([0, 1]);
    expect(file.cases().NB_2.hints).toEqual([3]);
    expect(states[0]).toBe('true/false');
    expect(states).toContain('true/true');
    expect(states[states.length - 1]).toBe('false/false');
  });

  it("keeps what another page wrote to the file: each write merges the file's copy", async () => {
    const other = { NB_2: { ...hinted(1), timeSpentMs: 9000 } };
    const file = new MemoryFile(
      toJSON(other, { casebook: 'demo', exportedAt: T0 })
    );
    const backup = new ProgressBackup({ file, casebook: 'demo' });
    backup.save({ NB_1: hinted(0), NB_2: hinted(2) });
    await backup.saved();
    expect(file.cases().NB_1.hints).toEqual([0]);
    expect(file.cases().NB_2).toMatchObject({
      hints: [1, 2],
      timeSpentMs: 9000
    });
  });

  it('names a file it cannot read, and replaces it with the progress of the page', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const file = new MemoryFile('{"format": "something else"');
      const backup = new ProgressBackup({ file, casebook: 'demo' });
      expect(await backup.load()).toEqual({});
      expect(backup.problem).toMatch(
        /^junobench-work\/demo\/progress\.json: \(file\): not valid JSON/
      );
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('junobench-work/demo/progress.json')
      );
      backup.save({ NB_1: hinted(0) });
      await backup.saved();
      expect(file.cases().NB_1.hints).toEqual([0]);
      expect(backup.problem).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it('stops retrying once disposed', async () => {
    const file = new MemoryFile();
    const sleeper = new Sleeper();
    const backup = new ProgressBackup({
      file,
      casebook: 'demo',
      sleep: sleeper.sleep
    });
    file.down = true;
    backup.save({ NB_1: hinted(0) });
    await settle();
    expect(sleeper.waiting).toBe(1);
    backup.dispose();
    file.down = false;
    await sleeper.wake();
    await backup.saved();
    expect(file.writes).toBe(0);
    expect(sleeper.waiting).toBe(0);
  });
});

describe('ProgressStore with a backup file', () => {
  it('writes every change to the backup as well as the state DB', async () => {
    const file = new MemoryFile();
    const backup = new ProgressBackup({ file, casebook: 'demo' });
    const state = new StateDB();
    const store = new ProgressStore({ state, casebook: 'demo', backup });
    await store.markCrashed('NB_1');
    await store.recordHint('NB_1', 0);
    await backup.saved();
    expect(file.cases().NB_1).toMatchObject({ status: 'crashed', hints: [0] });
  });

  it('takes at load what only the backup has, and saves it to the state DB', async () => {
    // The workspace missed the last change (the server was down when it was
    // saved); the backup file got it once the server was back.
    const state = new StateDB();
    const before = new ProgressStore({ state, casebook: 'demo' });
    await before.markCrashed('NB_1');
    before.dispose();
    const file = new MemoryFile(
      toJSON(
        { NB_1: { ...hinted(0, 1), status: 'crashed' }, NB_2: hinted(2) },
        { casebook: 'demo', exportedAt: T0 }
      )
    );
    const backup = new ProgressBackup({ file, casebook: 'demo' });
    const store = new ProgressStore({ state, casebook: 'demo', backup });
    await store.ready;
    expect(store.get('NB_1')).toMatchObject({
      status: 'crashed',
      hints: [0, 1]
    });
    expect(store.get('NB_2').hints).toEqual([2]);
    await store.flush();
    const reloaded = new ProgressStore({ state, casebook: 'demo' });
    await reloaded.ready;
    expect(reloaded.get('NB_1').hints).toEqual([0, 1]);
    expect(reloaded.get('NB_2').hints).toEqual([2]);
    // The backup had everything: nothing to write back.
    await backup.saved();
    expect(file.writes).toBe(0);
  });

  it('fills a backup that misses what the state DB has (the first load after an upgrade)', async () => {
    const state = new StateDB();
    const before = new ProgressStore({ state, casebook: 'demo' });
    await before.recordHint('NB_1', 4);
    before.dispose();
    const file = new MemoryFile();
    const backup = new ProgressBackup({ file, casebook: 'demo' });
    const store = new ProgressStore({ state, casebook: 'demo', backup });
    await store.ready;
    await backup.saved();
    expect(file.cases().NB_1.hints).toEqual([4]);
  });

  it('loads from the state DB alone when the backup cannot be reached', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const state = new StateDB();
      const before = new ProgressStore({ state, casebook: 'demo' });
      await before.recordHint('NB_1', 1);
      before.dispose();
      const file = new MemoryFile();
      file.down = true;
      const backup = new ProgressBackup({
        file,
        casebook: 'demo',
        sleep: () => new Promise(() => undefined)
      });
      const store = new ProgressStore({ state, casebook: 'demo', backup });
      await store.ready;
      expect(store.get('NB_1').hints).toEqual([1]);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining(
          'could not read the progress backup junobench-work/demo/progress.json'
        )
      );
      backup.dispose();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('ProgressTracker with a backup file', () => {
  it('tells backup state changes apart from progress changes', async () => {
    const file = new MemoryFile();
    const tracker = new ProgressTracker({
      state: new StateDB(),
      backupFile: () => file
    });
    tracker.setCasebook('demo');
    await tracker.store!.ready;
    let changed = 0;
    let backupChanged = 0;
    tracker.changed.connect(() => void changed++);
    tracker.backupChanged.connect(() => void backupChanged++);
    await tracker.recordHint('NB_1', 0);
    await tracker.backupSaved();
    // One progress change; the write started and finished.
    expect(changed).toBe(1);
    expect(backupChanged).toBe(2);
    expect(tracker.backupState).toEqual({
      path: file.path,
      pending: false,
      error: null,
      problem: null
    });
  });
});
