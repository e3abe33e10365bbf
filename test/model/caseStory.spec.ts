/**
 * The case side panel's model without a DOM: only the verdict is open at
 * first, a new result opens its section and is announced (the announcement
 * belongs to its copy), and each working copy keeps its own self-diagnosis
 * (over a real progress tracker) until its notebook closes.
 */
import { StateDB } from '@jupyterlab/statedb';
import { Signal } from '@lumino/signaling';

import { CaseStory } from '../../src/model/caseStory';
import { ProgressTracker } from '../../src/progress/tracker';
import type { IWorkingCopy } from '../../src/tokens';

/** A working copy whose replay and check states the test sets. */
class Copy {
  constructor(readonly caseName: string) {}
  readonly panel = { disposed: new Signal<unknown, void>(this) };
  readonly replay = {
    state: { phase: 'idle', kind: 'recorded', result: null, message: '' },
    stateChanged: new Signal<unknown, void>(this),
    driftChanged: new Signal<unknown, void>(this)
  };
  readonly check = {
    state: { verdict: null, hints: [] as unknown[] },
    stateChanged: new Signal<unknown, void>(this)
  };
  /** The copy as the story takes it. */
  get copy(): IWorkingCopy {
    return this as unknown as IWorkingCopy;
  }
  /** A run of the recorded order crashed. */
  crash(): void {
    this.replay.state = {
      phase: 'finished',
      kind: 'recorded',
      result: { status: 'crashed', durationMs: 12 },
      message: 'ValueError'
    } as never;
    this.replay.stateChanged.emit();
  }
  /** One more hint is open. */
  hint(): void {
    this.check.state = {
      ...this.check.state,
      hints: [...this.check.state.hints, {}]
    };
    this.check.stateChanged.emit();
  }
}

describe('CaseStory', () => {
  it('opens the section of a new result and announces it for its copy', () => {
    const story = new CaseStory();
    const a = new Copy('numpy_1');
    const b = new Copy('pandas_1');
    const open = () =>
      (['verdict', 'why', 'order', 'hints'] as const).filter(s =>
        story.isExpanded(s)
      );
    expect(open()).toEqual(['verdict']);
    story.current = a.copy;
    a.crash();
    expect(open()).toEqual(['verdict', 'why']);
    expect(story.announcement).toBe('why');
    // The same result again is no news.
    a.replay.stateChanged.emit();
    a.hint();
    expect(story.announcement).toBe('hints');
    expect(open()).toEqual(['verdict', 'why', 'hints']);
    story.toggle('why');
    story.toggle('verdict');
    expect(open()).toEqual(['hints']);
    // Another copy: the announcement was for the first one.
    story.current = b.copy;
    expect(story.announcement).toBeNull();
    // A copy no longer current is not followed.
    a.hint();
    expect(story.announcement).toBeNull();
    story.dispose();
  });

  it('keeps one self-diagnosis per copy, only with progress kept', async () => {
    expect(
      Object.assign(new CaseStory(), { current: new Copy('x').copy }).diagnosis
    ).toBeNull();
    const progress = new ProgressTracker({ state: new StateDB() });
    progress.setCasebook('demo');
    await progress.store!.ready;
    const story = new CaseStory({ progress });
    let changes = 0;
    story.stateChanged.connect(() => changes++);
    expect(story.diagnosis).toBeNull();
    const a = new Copy('numpy_1');
    story.current = a.copy;
    const first = story.diagnosis!;
    first.choose('rootCause', 'data confusion');
    expect(changes).toBe(2);
    story.current = new Copy('pandas_1').copy;
    expect(story.diagnosis).not.toBe(first);
    story.current = a.copy;
    // The unsaved choice survived switching notebooks.
    expect(story.diagnosis).toBe(first);
    expect(story.diagnosis!.value('rootCause')).toBe('data confusion');
    await first.save();
    expect(progress.get('numpy_1')?.prediction?.rootCause).toBe(
      'data confusion'
    );
    // The notebook closes: the story forgets the copy and its diagnosis.
    a.panel.disposed.emit();
    expect(story.current).toBeNull();
    story.current = a.copy;
    expect(story.diagnosis).not.toBe(first);
    story.dispose();
  });
});
