/**
 * Why a fresh kernel could not start, in words: a silent kernel is worded
 * from its fields (kernel name, seconds, the connection's last complaint)
 * through the caller's translation, in English on the command line; any
 * other failure keeps its own message.
 */
import { english } from '../../src/i18n';
import {
  renderStartFailure,
  SilentKernelError,
  uniqueSuffix
} from '../../src/kernel/freshSession';

describe('renderStartFailure', () => {
  it('words a silent kernel from its fields, in English by default', () => {
    const silent = new SilentKernelError('python3', 180, '');
    expect(silent.message).toBe(
      'the kernel "python3" did not answer within 180 s'
    );
    expect(renderStartFailure(silent)).toBe(silent.message);
    const complaining = new SilentKernelError(
      'junobench-container',
      60,
      'Could not send message: status is not connected'
    );
    expect(complaining.message).toBe(
      'the kernel "junobench-container" did not answer within 60 s (Could not send message: status is not connected)'
    );
  });

  it('goes through the translation it is given, never pre-rendered English', () => {
    const seen: Array<[string, unknown[]]> = [];
    const translate = (msgid: string, ...args: unknown[]) => {
      seen.push([msgid, args]);
      return `«${english(msgid, ...args)}»`;
    };
    expect(
      renderStartFailure(
        new SilentKernelError('mute', 3, 'no reply'),
        translate
      )
    ).toBe('«the kernel "mute" did not answer within 3 s (no reply)»');
    expect(seen).toEqual([
      [
        'the kernel "%1" did not answer within %2 s (%3)',
        ['mute', 3, 'no reply']
      ]
    ]);
  });

  it('keeps the message of any other failure', () => {
    expect(renderStartFailure(new Error('No such kernel named nope'))).toBe(
      'No such kernel named nope'
    );
    expect(renderStartFailure('refused')).toBe('refused');
  });
});

describe('uniqueSuffix', () => {
  it('never repeats within a run', () => {
    const many = Array.from({ length: 1000 }, () => uniqueSuffix());
    expect(new Set(many).size).toBe(many.length);
    expect(many.every(s => /^\d+-[a-z0-9]+$/.test(s))).toBe(true);
  });
});
