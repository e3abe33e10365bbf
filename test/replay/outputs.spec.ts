import type { IMimeBundle } from '@jupyterlab/nbformat';
import {
  DEFAULT_OUTPUT_LIMITS,
  OutputCap,
  sizeOf,
  truncationNote
} from '../../src/replay';
import type { INbOutput, IOutputLimits } from '../../src/replay';

/** Small limits, so the cases stay readable. */
const LIMITS: IOutputLimits = { streamChars: 10, itemChars: 8, cellChars: 12 };

const stream = (text: string, name = 'stdout'): INbOutput => ({
  output_type: 'stream',
  name,
  text
});
const display = (data: IMimeBundle): INbOutput => ({
  output_type: 'display_data',
  data,
  metadata: {}
});
const error: INbOutput = {
  output_type: 'error',
  ename: 'ValueError',
  evalue: 'x'.repeat(100),
  traceback: ['y'.repeat(100)]
};

/** Feed outputs through a fresh cap; what was kept, and the dropped count. */
function feed(outputs: INbOutput[]): {
  kept: (INbOutput | null)[];
  dropped: number;
} {
  const cap = new OutputCap(LIMITS);
  const kept = outputs.map(o => cap.take(o));
  return { kept, dropped: cap.dropped };
}

describe('OutputCap', () => {
  it.each<[string, INbOutput[], (INbOutput | null)[], number]>([
    [
      'a short stream is kept whole',
      [stream('hello\n')],
      [stream('hello\n')],
      0
    ],
    [
      'the stream that crosses the limit is cut',
      [stream('12345'), stream('6789012345')],
      [stream('12345'), stream('67890')],
      5
    ],
    [
      'streams after the limit are dropped',
      [stream('1234567890'), stream('abc', 'stderr')],
      [stream('1234567890'), null],
      3
    ],
    [
      'a stream given as lines is counted whole',
      [{ output_type: 'stream', name: 'stdout', text: ['12345', '678901'] }],
      [stream('1234567890')],
      1
    ],
    [
      'a small rich output is kept',
      [display({ 'text/plain': 'df' })],
      [display({ 'text/plain': 'df' })],
      0
    ],
    [
      'a MIME value over the item limit is dropped, the rest kept',
      [display({ 'text/html': '<table>…</table>', 'text/plain': 'df' })],
      [display({ 'text/plain': 'df' })],
      16
    ],
    [
      'a rich output with nothing left is dropped',
      [display({ 'text/html': '<table>…</table>' })],
      [null],
      16
    ],
    [
      'rich values past the per-cell budget are dropped',
      [
        display({ 'text/plain': '1234567' }),
        display({ 'text/plain': '89abcde' })
      ],
      [display({ 'text/plain': '1234567' }), null],
      7
    ],
    ['errors are always kept', [error], [error], 0],
    [
      'a rich output without data passes',
      [{ output_type: 'display_data', data: {}, metadata: {} }],
      [{ output_type: 'display_data', data: {}, metadata: {} }],
      0
    ]
  ])('%s', (_name, outputs, expected, dropped) => {
    const result = feed(outputs);
    expect(result.kept).toEqual(expected);
    expect(result.dropped).toBe(dropped);
  });

  it('starts counting again after the cell clears its output', () => {
    const cap = new OutputCap(LIMITS);
    expect(cap.take(stream('1234567890abc'))).toEqual(stream('1234567890'));
    expect(cap.dropped).toBe(3);
    cap.clear();
    expect(cap.dropped).toBe(0);
    expect(cap.note()).toBeNull();
    expect(cap.take(stream('fresh'))).toEqual(stream('fresh'));
  });

  it('ends a truncated output with a note of what was not shown', () => {
    const cap = new OutputCap();
    cap.take(stream('x'.repeat(50_000_000)));
    const note = cap.note();
    expect(note).toEqual(truncationNote(49_000_000));
    expect(String(note?.text)).toContain(
      '[output truncated by JunoBench: 46.7 MB not shown]'
    );
    expect(note?.name).toBe('stderr');
  });

  it('keeps about a megabyte of text per cell by default', () => {
    expect(DEFAULT_OUTPUT_LIMITS.streamChars).toBe(1_000_000);
  });
});

describe('sizeOf', () => {
  it.each<[string, unknown, number]>([
    ['a string', 'abc', 3],
    ['lines', ['ab', 'c'], 3],
    ['JSON', { a: 1 }, 7],
    ['null', null, 4],
    [
      'a cycle counts as nothing',
      (() => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      })(),
      0
    ]
  ])('%s', (_name, value, size) => {
    expect(sizeOf(value)).toBe(size);
  });
});
