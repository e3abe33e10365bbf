/**
 * The check model without a notebook, a kernel or a translator: a check's
 * phases as codes, and the hint ladder opened one step at a time.
 */
import { CheckModel } from '../../src/model/checkModel';
import type { ICheckState } from '../../src/model/checkModel';
import type { ICheckVerdict } from '../../src/repair/check';
import type { IHint } from '../../src/repair/hints';

/** A ladder of `n` hints. */
function ladder(n: number): IHint[] {
  return Array.from(
    { length: n },
    (_, i) => ({ step: i + 1, title: `hint ${i + 1}`, text: '' }) as IHint
  );
}

const VERDICT = { passed: true, status: 'solved' } as ICheckVerdict;

describe('CheckModel', () => {
  it('runs, then keeps the verdict and the snapshot; a new check forgets them', () => {
    const model = new CheckModel();
    const states: ICheckState[] = [];
    model.stateChanged.connect((_, s) => {
      states.push(s);
    });
    expect(model.state.status.code).toBe('check.none');
    model.start();
    model.judged(VERDICT, 'work/attempts/a.ipynb');
    expect(states.map(s => [s.running, s.status.code])).toEqual([
      [true, 'check.running'],
      [false, 'check.verdict']
    ]);
    expect(model.state).toMatchObject({
      verdict: VERDICT,
      snapshotPath: 'work/attempts/a.ipynb',
      status: { params: { verdict: VERDICT } }
    });
    model.start();
    expect(model.state).toMatchObject({ verdict: null, snapshotPath: null });
  });

  it('keeps why a check could not run, and stops running', () => {
    const model = new CheckModel();
    model.start();
    const reason = new Error('no kernel');
    model.failed(reason);
    expect(model.state.running).toBe(false);
    expect(model.state.status).toEqual({
      code: 'check.failed',
      params: { reason }
    });
  });

  it.each([
    ['none opened', [], 1, [1]],
    ['the first opened in an earlier session', [1], 2, [1, 2]],
    ['out of order', [2], 1, [1, 2]]
  ])(
    'opens the next hint with %s, and records it first',
    async (_, used, next, shown) => {
      const model = new CheckModel();
      const recorded: number[] = [];
      const hint = await model.openHint(ladder(3), used, async step => {
        // Recorded before the state shows it.
        expect(model.state.hints.map(h => h.step)).not.toContain(step);
        recorded.push(step);
      });
      expect(hint?.step).toBe(next);
      expect(recorded).toEqual([next]);
      expect(model.state.hints.map(h => h.step)).toEqual(shown);
      expect(model.state.hintsDone).toBe(false);
    }
  );

  it('says when every hint is open, and opens none after', async () => {
    const model = new CheckModel();
    const record = async () => undefined;
    for (const step of [1, 2]) {
      expect((await model.openHint(ladder(2), [], record))?.step).toBe(step);
    }
    expect(model.state.hintsDone).toBe(true);
    expect(await model.openHint(ladder(2), [], record)).toBeNull();
    expect(model.state.hints).toHaveLength(2);
  });
});
