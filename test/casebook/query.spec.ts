/**
 * `queryCases`: the list and the facet counts in one pass, equal to
 * `filterCases` and `facetCounts` run apart.
 */

import {
  emptyQuery,
  facetCounts,
  filterCases,
  queryCases,
  runnability
} from '../../src/casebook';
import type { ICase, ICaseQuery } from '../../src/casebook';

import { caseRecord } from './fixtures';

const LIBRARIES = ['pandas', 'torch', 'numpy', 'NBspecific', 'seaborn'];
const TYPES = ['key error', 'value error', 'tensor shape mismatch', ''];
const CAUSES = ['API misuse', 'data confusion', 'NB specific'];
const STAGES = ['training', 'data preparation', 'evaluation/prediction'];
const ENAMES = ['valueerror', 'keyerror', 'typeerror'];
const STATUSES = ['not-started', 'attempted', 'solved'];

let seed = 777;
function next(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

function makeCase(i: number): ICase {
  // Drawn in this order, so the cases stay the same from run to run.
  const name = `${LIBRARIES[next(LIBRARIES.length)]}_${i}`;
  const rootCause = CAUSES[next(CAUSES.length)];
  const ename = ENAMES[next(ENAMES.length)];
  const evalue = `message ${next(50)}`;
  const crashType = TYPES[next(TYPES.length)];
  const pipelineStage = STAGES[next(STAGES.length)];
  return caseRecord(name, {
    ename,
    evalue,
    rootCause,
    crashType,
    pipelineStage,
    mlBug: 'ML bug',
    row: i,
    datasets: next(2) ? [{ title: 'd', license: 'CC0', url: '' }] : [],
    files: {
      folder: next(3) ? `benchmark/${name}` : null,
      original: true,
      reproduced: next(4) > 0,
      fixed: next(2) > 0,
      readme: true,
      data: next(2) ? [`benchmark/${name}/data.csv`] : []
    }
  });
}

const BIG = Array.from({ length: 10000 }, (_, i) => makeCase(i));
const STATUS = new Map(BIG.map(c => [c.name, STATUSES[next(STATUSES.length)]]));
const statusOf = (name: string): string => STATUS.get(name) ?? 'not-started';

describe('queryCases', () => {
  it.each<[string, Partial<ICaseQuery>]>([
    ['an empty query', {}],
    ['text', { text: 'KeyError message 4' }],
    ['a text nothing matches', { text: 'no such words' }],
    ['facets', { library: ['pandas', 'torch'], pipelineStage: ['training'] }],
    ['an empty facet value', { crashType: [''] }],
    ['a selected value no case has', { rootCause: ['nothing like it'] }],
    [
      'everything',
      {
        text: 'error',
        crashType: ['value error', 'key error'],
        rootCause: ['API misuse', 'NB specific'],
        status: ['solved', 'attempted'],
        notebookSpecificOnly: true,
        runnableOnly: true
      }
    ],
    ['runnable only', { runnableOnly: true }],
    ['runnable only and a library', { runnableOnly: true, library: ['numpy'] }]
  ])('equals filterCases + facetCounts for %s', (_, parts) => {
    const query = { ...emptyQuery(), ...parts };
    for (const status of [undefined, statusOf]) {
      const result = queryCases(BIG, query, status);
      expect(result.visible).toEqual(filterCases(BIG, query, status));
      expect(result.facets).toEqual(facetCounts(BIG, query, status));
    }
  });

  it('counts the runnable cases among those matching the rest of the query', () => {
    const query = { ...emptyQuery(), library: ['pandas'] };
    const { facets } = queryCases(BIG, query);
    const expected = BIG.filter(
      c => c.library === 'pandas' && runnability(c).runnable
    ).length;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(
      BIG.filter(c => c.library === 'pandas').length
    );
    expect(facets.runnable).toBe(expected);
    // Switching it on does not change its own count, and shows exactly those.
    const on = queryCases(BIG, { ...query, runnableOnly: true });
    expect(on.facets.runnable).toBe(expected);
    expect(on.visible).toHaveLength(expected);
  });

  it('keeps the casebook order and the case objects', () => {
    const { visible } = queryCases(BIG, { ...emptyQuery(), text: 'torch' });
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.every(c => BIG.includes(c))).toBe(true);
    expect(visible.map(c => c.row)).toEqual(
      [...visible.map(c => c.row)].sort((a, b) => a - b)
    );
  });

  it('sees cases added to a list it has already indexed', () => {
    const list = BIG.slice(0, 100);
    const before = queryCases(list, { ...emptyQuery(), text: 'zzz-added' });
    expect(before.visible).toEqual([]);
    list.push({ ...BIG[0], name: 'pandas_zzz-added', library: 'pandas' });
    const after = queryCases(list, { ...emptyQuery(), text: 'zzz-added' });
    expect(after.visible.map(c => c.name)).toEqual(['pandas_zzz-added']);
    expect(after.facets.library).toEqual([{ value: 'pandas', count: 1 }]);
  });
});
