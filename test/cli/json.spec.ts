/**
 * The command line's JSON says each cell reference's English name at the edge: the core's
 * objects carry only the index and the prompt.
 */
import { cellNamesInJSON, cellRef } from '../../src/i18n';

describe('cellNamesInJSON', () => {
  it('names every cell reference, however deep, and nothing else', () => {
    const report = {
      findings: [
        { code: 'target-emptied', cell: cellRef(4, 3) },
        { code: 'no-evidence', cell: cellRef(0, null) }
      ],
      evidence: { target: { cell: cellRef(6, 12), match: 'id' } },
      // A step has an index and a prompt too, with more fields: not a reference.
      step: { cellIndex: 2, executionCount: 2, source: 'x = 1' },
      // A prompt that is not a number or null: not a reference either.
      odd: { cellIndex: 1, executionCount: '3' }
    };
    expect(JSON.parse(JSON.stringify(report, cellNamesInJSON))).toEqual({
      findings: [
        {
          code: 'target-emptied',
          cell: { cellIndex: 4, executionCount: 3, name: 'cell 5 [3]' }
        },
        {
          code: 'no-evidence',
          cell: { cellIndex: 0, executionCount: null, name: 'cell 1 [ ]' }
        }
      ],
      evidence: {
        target: {
          cell: { cellIndex: 6, executionCount: 12, name: 'cell 7 [12]' },
          match: 'id'
        }
      },
      step: { cellIndex: 2, executionCount: 2, source: 'x = 1' },
      odd: { cellIndex: 1, executionCount: '3' }
    });
  });

  it('leaves the core objects without English', () => {
    expect(Object.keys(cellRef(4, 3)).sort()).toEqual([
      'cellIndex',
      'executionCount'
    ]);
  });
});
