import { ActiveTimer } from '../../src/progress/timer';

const S = 1000;
const MIN = 60 * S;

describe('ActiveTimer', () => {
  it('counts the time a case is in front, until another case is', () => {
    const timer = new ActiveTimer({ idleMs: 5 * MIN });
    timer.focus('a', 0);
    timer.touch(30 * S);
    timer.focus('b', 60 * S);
    timer.touch(90 * S);
    expect(Object.fromEntries(timer.take(100 * S))).toEqual({
      a: 60 * S,
      b: 40 * S
    });
  });

  it('counts a quiet stretch only up to the idle limit', () => {
    const timer = new ActiveTimer({ idleMs: 5 * MIN });
    timer.focus('a', 0);
    timer.touch(2 * MIN);
    timer.touch(62 * MIN);
    timer.touch(63 * MIN);
    expect(timer.take(63 * MIN).get('a')).toBe(2 * MIN + 5 * MIN + 1 * MIN);
  });

  it('counts nothing while no case is in front', () => {
    const timer = new ActiveTimer();
    timer.touch(10 * S);
    timer.focus('a', 20 * S);
    timer.focus(null, 50 * S);
    timer.touch(70 * S);
    timer.focus('a', 100 * S);
    expect(Object.fromEntries(timer.take(110 * S))).toEqual({ a: 40 * S });
  });

  it('hands out each stretch once and keeps timing the current case', () => {
    const timer = new ActiveTimer();
    timer.focus('a', 0);
    expect(timer.take(10 * S).get('a')).toBe(10 * S);
    expect(timer.take(10 * S).size).toBe(0);
    expect(timer.take(25 * S).get('a')).toBe(15 * S);
    expect(timer.current).toBe('a');
  });

  it('ignores a clock that goes backwards', () => {
    const timer = new ActiveTimer();
    timer.focus('a', 100 * S);
    timer.touch(50 * S);
    expect(timer.take(60 * S).get('a')).toBe(10 * S);
  });

  it('treats focusing the same case again as activity', () => {
    const timer = new ActiveTimer({ idleMs: MIN });
    timer.focus('a', 0);
    timer.focus('a', 50 * S);
    expect(timer.take(100 * S).get('a')).toBe(100 * S);
  });
});
