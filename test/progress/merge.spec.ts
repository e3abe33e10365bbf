import {
  mergeCaseProgress,
  mergeProgress,
  sameProgress
} from '../../src/progress/merge';
import type { IAttempt, ICaseProgress } from '../../src/progress/types';
import { emptyProgress } from '../../src/progress/types';
import type { IPrediction } from '../../src/repair/selfDiagnosis';

const at = (minute: number) =>
  new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();

function attempt(minute: number, passed = false): IAttempt {
  return {
    at: at(minute),
    passed,
    status: passed ? 'passed' : 'still-crashes',
    exception: passed ? null : 'NameError: x',
    snapshotPath: `w/NB_1/attempts/${minute}.ipynb`
  };
}

function prediction(minute: number, rootCause: string): IPrediction {
  return {
    at: at(minute),
    hints: [],
    rootCause,
    crashType: null,
    stage: null
  } as unknown as IPrediction;
}

const score = (correct: number) => ({
  correct,
  total: 3,
  hinted: 0,
  answers: []
});

describe('mergeCaseProgress', () => {
  it('keeps the furthest status, every attempt once, every hint and the most time', () => {
    const a: ICaseProgress = {
      ...emptyProgress(),
      status: 'attempted',
      attempts: [attempt(1), attempt(3)],
      hints: [0, 2],
      timeSpentMs: 5000
    };
    const b: ICaseProgress = {
      ...emptyProgress(),
      status: 'solved',
      attempts: [attempt(1), attempt(2), attempt(4, true)],
      hints: [1, 2],
      timeSpentMs: 4000
    };
    const merged = mergeCaseProgress(a, b);
    expect(merged.status).toBe('solved');
    expect(merged.attempts).toEqual([
      attempt(1),
      attempt(2),
      attempt(3),
      attempt(4, true)
    ]);
    expect(merged.hints).toEqual([0, 1, 2]);
    expect(merged.timeSpentMs).toBe(5000);
  });

  it('keeps the first reveal and the score frozen with it', () => {
    const a: ICaseProgress = {
      ...emptyProgress(),
      revealedAt: at(10),
      selfDiagnosis: score(2)
    };
    const b: ICaseProgress = {
      ...emptyProgress(),
      revealedAt: at(5),
      selfDiagnosis: score(1)
    };
    expect(mergeCaseProgress(a, b)).toMatchObject({
      revealedAt: at(5),
      selfDiagnosis: score(1)
    });
    const notRevealed = { ...emptyProgress(), timeSpentMs: 1 };
    expect(mergeCaseProgress(notRevealed, a)).toMatchObject({
      revealedAt: at(10),
      selfDiagnosis: score(2)
    });
  });

  it('keeps the latest prediction, but none saved after the first reveal', () => {
    const early = { ...emptyProgress(), prediction: prediction(1, 'early') };
    const late = { ...emptyProgress(), prediction: prediction(8, 'late') };
    expect(mergeCaseProgress(early, late).prediction?.at).toBe(at(8));
    // The reveal at minute 5 froze the early prediction: another tab's
    // prediction from minute 8 had not seen the reveal.
    const revealed = { ...early, revealedAt: at(5) };
    expect(mergeCaseProgress(revealed, late).prediction?.at).toBe(at(1));
    expect(mergeCaseProgress(late, revealed).prediction?.at).toBe(at(1));
  });

  it('keeps a copy that has nothing the other lacks as it is', () => {
    const a: ICaseProgress = {
      ...emptyProgress(),
      status: 'crashed',
      hints: [0],
      timeSpentMs: 10
    };
    expect(sameProgress(mergeCaseProgress(a, emptyProgress()), a)).toBe(true);
    expect(sameProgress(mergeCaseProgress(emptyProgress(), a), a)).toBe(true);
    expect(sameProgress(mergeCaseProgress(a, a), a)).toBe(true);
  });

  describe('over many generated records', () => {
    // A small deterministic generator (no dependency, same cases every run).
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T =>
      values[Math.floor(random() * values.length)];
    const generate = (): ICaseProgress => {
      const revealed = random() < 0.5;
      return {
        status: pick(['not-started', 'crashed', 'attempted', 'solved']),
        attempts: [0, 1, 2, 3]
          .filter(() => random() < 0.4)
          .map(m => attempt(m, m === 3)),
        hints: [0, 1, 2, 3].filter(() => random() < 0.4),
        prediction:
          random() < 0.6
            ? prediction(pick([1, 2, 6, 9]), pick(['x', 'y']))
            : null,
        selfDiagnosis: revealed ? score(pick([0, 1, 2])) : null,
        revealedAt: revealed ? at(pick([3, 5, 7])) : null,
        timeSpentMs: pick([0, 1000, 2500])
      };
    };
    const samples = Array.from({ length: 60 }, generate);

    it('is the same in either order, and merging a merge again changes nothing', () => {
      for (const a of samples) {
        for (const b of samples.slice(0, 20)) {
          const ab = mergeCaseProgress(a, b);
          expect(ab).toEqual(mergeCaseProgress(b, a));
          expect(mergeCaseProgress(ab, a)).toEqual(ab);
          expect(mergeCaseProgress(ab, b)).toEqual(ab);
        }
      }
    });
  });
});

describe('mergeProgress', () => {
  it('merges the cases both have and keeps those only one has', () => {
    const a = {
      NB_1: { ...emptyProgress(), hints: [0] },
      NB_2: { ...emptyProgress(), status: 'crashed' as const }
    };
    const b = {
      NB_1: { ...emptyProgress(), hints: [1] },
      NB_3: { ...emptyProgress(), timeSpentMs: 7 }
    };
    const merged = mergeProgress(a, b);
    expect(Object.keys(merged).sort()).toEqual(['NB_1', 'NB_2', 'NB_3']);
    expect(merged.NB_1.hints).toEqual([0, 1]);
    expect(merged.NB_2.status).toBe('crashed');
    expect(merged.NB_3.timeSpentMs).toBe(7);
  });
});
