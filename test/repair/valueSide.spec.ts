/**
 * The sides of a value difference (what the reference fix's target computes
 * against what the learner's does) as codes: rendered in English exactly as
 * the check words them, and entirely through a translate function.
 */
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { compareEffects, compareSummaries } from '../../src/repair/evidence';
import { renderAspect, renderValueSide } from '../../src/repair/evidenceText';
import type { ValueSide } from '../../src/repair/evidenceText';
import { renderFinding } from '../../src/repair/findings';

/** A translation that upper-cases every message id: English words left lower case are leaks. */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);
const leaks = (text: string) => text.match(/[a-z]{2,}/g) ?? [];

const SIDES: [ValueSide, string][] = [
  [
    {
      code: 'summary',
      summary: { type: 'X', shape: [3, 4], dtype: 'F8' }
    },
    'X (3, 4) F8'
  ],
  [{ code: 'not-defined' }, 'not defined'],
  [{ code: 'shape', shape: [150, 4] }, 'shape (150, 4)'],
  [{ code: 'dtype', dtype: 'I8' }, 'dtype I8'],
  [{ code: 'columns', columns: ['A'] }, 'column A'],
  [{ code: 'columns', columns: ['A', 'B'] }, 'columns A, B'],
  [{ code: 'no-more-columns' }, 'no more columns'],
  [{ code: 'extra-columns', columns: ['C'] }, 'extra column C'],
  [{ code: 'extra-columns', columns: ['C', 'D'] }, 'extra columns C, D'],
  [{ code: 'not-there' }, 'not there'],
  [{ code: 'attribute', key: 'fitted', value: 1 }, 'fitted 1'],
  [{ code: 'attribute', key: 'weights', value: 12 }, 'weights 12'],
  [{ code: 'varying' }, 'values that vary'],
  [{ code: 'one-value' }, 'one value everywhere'],
  [{ code: 'value', value: 3.14159265 }, '3.14159'],
  [{ code: 'stats', sum: 10, min: 1, max: 4 }, 'sum 10, min 1, max 4'],
  [{ code: 'length', len: 7 }, 'length 7'],
  [{ code: 'other-values' }, 'other values']
];

describe('renderValueSide', () => {
  it.each(SIDES)('%j reads "%s" in English', (side, text) => {
    expect(renderValueSide(side)).toBe(text);
  });

  it.each(SIDES)('%j goes through the translate function', side => {
    expect(leaks(renderValueSide(side, shout))).toEqual([]);
  });

  it.each([
    'type',
    'missing',
    'shape',
    'dtype',
    'columns',
    'fitted',
    'constant',
    'value'
  ])('the aspect %s goes through the translate function', aspect => {
    expect(renderAspect(aspect)).toBe(aspect);
    expect(leaks(renderAspect(aspect, shout))).toEqual([]);
  });
});

describe('a different effect, translated whole', () => {
  it('keeps the English words and renders the sides through `__`', () => {
    const diff = compareSummaries(
      { type: 'DataFrame', shape: [10, 3], columns: ['A', 'B', 'C'] },
      { type: 'DataFrame', shape: [10, 3], columns: ['A', 'B', 'D'] },
      'structure'
    )!;
    expect(diff.expected).toBe('column C');
    expect(diff.actual).toBe('extra column D');
    const finding = {
      code: 'effect-differs' as const,
      name: 'DF',
      aspect: diff.aspect,
      expected: diff.expected,
      actual: diff.actual,
      expectedSide: diff.expectedSide,
      actualSide: diff.actualSide
    };
    expect(renderFinding(finding)).toBe(
      'After the target cell, `DF` differs from the reference fix’s (columns): the reference has column C, yours has extra column D.'
    );
    // Only the variable name and the values stay as they are.
    expect(leaks(renderFinding(finding, shout))).toEqual([]);
  });

  it('names a variable the learner never defined', () => {
    const [missing] = compareEffects(
      {
        effects: {
          model: {
            change: 'created',
            summary: { type: 'LinearRegression', fitted: true },
            mode: 'type',
            role: 'result'
          }
        },
        usedLater: ['model']
      } as never,
      {}
    ).differences;
    expect(missing.difference.actual).toBe('not defined');
    expect(missing.difference.expected).toBe('LinearRegression fitted');
    expect(
      renderFinding({
        code: 'effect-missing',
        name: 'model',
        expected: missing.difference.expected,
        expectedSide: missing.difference.expectedSide
      })
    ).toBe(
      'After the target cell, `model` is not defined, but the reference fix defines it (LinearRegression fitted).'
    );
  });
});

describe('a fresh run whose kernel went away', () => {
  const CELL = { cellIndex: 2, executionCount: 2, name: 'cell 3 [2]' };

  it.each([
    ['died', 'The kernel died while running cell 3 [2]; its state is lost.'],
    [
      'restarted',
      'The kernel was restarted while running cell 3 [2]; its state is lost.'
    ],
    ['shut-down', 'The kernel was shut down while running cell 3 [2].'],
    ['lost', 'The connection to the kernel was lost while running cell 3 [2].']
  ] as const)(
    '%s: said in English as the runner says it, and translated whole',
    (fate, text) => {
      const finding = {
        code: 'fresh-unfinished' as const,
        stop: { code: 'kernel' as const, fate, cell: CELL }
      };
      expect(renderFinding(finding)).toBe(
        `The fresh-kernel run did not finish: ${text}`
      );
      expect(leaks(renderFinding(finding, shout))).toEqual([]);
    }
  );

  it('translates a timeout whose interrupt was not heeded, cell included', () => {
    const finding = {
      code: 'fresh-unfinished' as const,
      stop: {
        code: 'kernel' as const,
        fate: 'unresponsive' as const,
        cell: CELL,
        timeoutSeconds: 5
      }
    };
    expect(renderFinding(finding)).toBe(
      'The fresh-kernel run did not finish: Cell 3 [2] ran longer than 5 s. The kernel did not respond to the interrupt and may still be running cell 3 [2]; the run gave up on it. Restart the kernel before running more code.'
    );
    expect(leaks(renderFinding(finding, shout))).toEqual([]);
  });
});
