import { emptyQuery, facetCounts, filterCases, libraryOf } from '../../src/casebook';
import type { ICase } from '../../src/casebook';
it('times', () => {
  const libs = ['pandas', 'torch', 'numpy', 'sklearn', 'NBspecific'];
  const cases: ICase[] = [];
  for (let i = 0; i < 10000; i++) {
    const name = `${libs[i % 5]}_${i}`;
    cases.push({ name, eid: '', ename: ['valueerror','keyerror'][i%2], evalue: `some message about thing ${i % 97}`, traceback: [], rootCause: ['API misuse','data confusion'][i%2], crashType: ['a','b','c'][i%3], pipelineStage: ['x','y'][i%2], mlBug: '', datasets: [], notebookUrl: '', row: 0, library: libraryOf(name), notebookSpecific: i%5===4, diagnosis: null, files: {folder: null, original: false, reproduced: false, fixed: false, readme: false, data: []}, problems: [] });
  }
  const q = { ...emptyQuery(), text: 'valueerror thing 4', library: ['pandas', 'torch'] };
  const statusOf = (n: string) => (n.length % 2 ? 'new' : 'solved');
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    const r = filterCases(cases, q, statusOf);
    const f = facetCounts(cases, q, statusOf);
    console.log(round, (performance.now() - t0).toFixed(1), 'ms', r.length, f.library.length);
  }
});
