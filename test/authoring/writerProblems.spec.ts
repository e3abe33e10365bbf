/**
 * What the case writer refuses or warns about, as codes: every code of
 * `jupyterlab_junobench.authoring` renders in English (the writer's own
 * wording, which writer.spec.ts compares with the Python's on real refusals)
 * and goes through the translation function the UI passes; so does why a new
 * case's name cannot be used (`describeNameProblem`).
 */
import { describeNameProblem } from '../../src/authoring/messages';
import type { CaseNameProblem } from '../../src/authoring/spec';
import {
  readWriterProblem,
  renderWriterProblem,
  WRITER_PROBLEM_CODES
} from '../../src/authoring/writerProblems';
import type { WriterProblem } from '../../src/authoring/writerProblems';
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). The
 * table's data hold no lower-case letters, so a lower-case word in a rendered
 * sentence is English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Lower-case words left in a sentence rendered with `shout`. */
const leaks = (sentence: string) => sentence.match(/[a-z]{2,}/g) ?? [];

/** Every code, and its English. */
const PROBLEMS: Array<[WriterProblem, string]> = [
  [
    { code: 'path-empty', field: 'casebook', path: '' },
    'casebook path "" is empty'
  ],
  [
    { code: 'path-nul', field: 'notebook-folder', path: 'A\u0000' },
    'notebook folder "A\\u0000" contains a NUL byte'
  ],
  [
    { code: 'path-backslash', field: 'data', path: 'A\\B', case: 'P_1' },
    'case P_1: data path "A\\\\B" contains a backslash'
  ],
  [
    { code: 'path-absolute', field: 'data', path: '/E', case: 'P_1' },
    'case P_1: data path "/E" is an absolute path; give it relative to the notebook\'s folder'
  ],
  [
    { code: 'path-dot-dot', field: 'casebook', path: '../O' },
    'casebook path "../O" has a ".." segment: it would leave its folder'
  ],
  [
    { code: 'path-no-file', field: 'data', path: null, case: 'P_1' },
    'case P_1: data path null names no file'
  ],
  [
    { code: 'outside', path: 'B/P_1', target: '/T', root: '/R' },
    'B/P_1 resolves to /T, outside /R; nothing was written'
  ],
  [
    { code: 'already-casebook', folder: '/B', file: 'D.XLSX' },
    '/B already holds D.XLSX: it is a casebook already'
  ],
  [{ code: 'not-a-folder', folder: '/B' }, '/B exists and is not a folder'],
  [
    { code: 'folder-not-empty', folder: '/B', entries: ['A', 'C'] },
    '/B is not empty (A, C); a new casebook starts in an empty or new folder'
  ],
  [{ code: 'spec-not-object' }, 'the case spec must be a JSON object'],
  [
    { code: 'bad-case-name', name: null, problem: { code: 'empty' } },
    'case name null cannot be used: it is empty (only letters, digits, "_", "." and "-" are allowed, and no "..")'
  ],
  [
    { code: 'not-a-casebook', folder: '/B', file: 'D.XLSX' },
    '/B has no D.XLSX: it is not a casebook (create one with "New JunoBench Casebook…" or `junobench new`)'
  ],
  [
    {
      code: 'case-exists',
      case: 'P_1',
      casebook: '/B',
      row: 2,
      file: 'D.XLSX',
      folder: 'B/P_1'
    },
    'case P_1 already exists in /B (row 2 of D.XLSX); choose another name or update it (--update)'
  ],
  [
    { code: 'no-case-folder', case: 'P_1', folder: 'B/P_1', casebook: '/B' },
    'case P_1 has no folder B/P_1 in /B'
  ],
  [
    { code: 'no-instance-sheet', file: 'G.XLSX' },
    'G.XLSX has no sheet with an "instance" column; it was left as it is'
  ],
  [
    { code: 'not-xlsx', file: 'D.XLSX', detail: 'BAD ZIP' },
    'D.XLSX is not a readable .xlsx file (BAD ZIP); it was left as it is'
  ],
  [
    { code: 'no-name-sheet', file: 'D.XLSX' },
    'D.XLSX has no sheet with an nb_name column; it was left as it is'
  ],
  [
    {
      code: 'cell-too-long',
      column: 'EVALUE',
      length: 40000,
      limit: 32767,
      file: 'D.XLSX'
    },
    'the EVALUE of this case is 40000 characters long; an xlsx cell holds at most 32767, so nothing was written (D.XLSX is left as it is)'
  ],
  [
    { code: 'no-reproduced', case: 'P_1' },
    'case P_1: the spec has no reproduced notebook'
  ],
  [
    { code: 'not-a-notebook', file: 'P_1.IPYNB' },
    'P_1.IPYNB: not a notebook (a JSON object)'
  ],
  [
    { code: 'nbformat', file: 'P_1.IPYNB', nbformat: 3 },
    'P_1.IPYNB: nbformat 3 is not 4'
  ],
  [
    { code: 'cells', file: 'P_1.IPYNB' },
    'P_1.IPYNB: "cells" is not a list of cells'
  ],
  [{ code: 'no-row', case: 'P_1' }, 'case P_1: the spec has no descriptor row'],
  [
    { code: 'no-exception-field', case: 'P_1', field: 'ENAME' },
    'case P_1: the recorded exception has no ENAME'
  ],
  [
    { code: 'traceback-type', case: 'P_1' },
    'case P_1: the traceback must be a list of strings'
  ],
  [
    { code: 'datasets-type', case: 'P_1' },
    'case P_1: datasets must be a list of {title, license, url}'
  ],
  [
    { code: 'label-type', case: 'P_1', column: 'LABEL' },
    'case P_1: LABEL must be text'
  ],
  [
    { code: 'data-type', case: 'P_1' },
    'case P_1: data must be a list of paths'
  ],
  [
    { code: 'data-without-root', case: 'P_1' },
    'case P_1: data files were given without the folder they are relative to'
  ],
  [
    { code: 'data-reserved', case: 'P_1', path: 'README.MD' },
    "case P_1: data path README.MD would overwrite the case's own README.MD"
  ],
  [
    {
      code: 'data-outside',
      case: 'P_1',
      path: 'D/L.CSV',
      target: '/S.CSV',
      root: '/N'
    },
    'case P_1: data path D/L.CSV resolves to /S.CSV, outside /N'
  ],
  [
    { code: 'data-missing', case: 'P_1', path: 'D/N.CSV', folder: '/N' },
    'case P_1: data file D/N.CSV does not exist in /N'
  ],
  [
    { code: 'data-not-file', case: 'P_1', path: 'D/FIFO' },
    'case P_1: data path D/FIFO is not a regular file'
  ],
  [
    { code: 'stdin-not-json', detail: 'EXPECTING VALUE' },
    'the spec on stdin is not JSON: EXPECTING VALUE'
  ],
  [
    { code: 'write-failed', detail: '/B/D.XLSX: PERMISSION DENIED' },
    'could not write: /B/D.XLSX: PERMISSION DENIED'
  ],
  [
    {
      code: 'traceback-shortened',
      case: 'P_1',
      limit: 32767,
      lines: 12,
      file: 'D.XLSX'
    },
    'the traceback of P_1 is longer than an xlsx cell holds (32767 characters); 12 line(s) were left out or cut in D.XLSX'
  ]
];

describe('renderWriterProblem', () => {
  it.each(PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, problem, text) => {
      expect(renderWriterProblem(problem)).toBe(text);
      expect(renderWriterProblem(problem, english)).toBe(text);
    }
  );

  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, problem) => {
      const sentence = renderWriterProblem(problem, shout);
      // `null` is the JSON of a path that was not text, not English.
      expect(leaks(sentence).filter(w => w !== 'null')).toEqual([]);
      expect(sentence).not.toBe(renderWriterProblem(problem));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(PROBLEMS.map(([p]) => p.code))].sort()).toEqual(
      [...WRITER_PROBLEM_CODES].sort()
    );
  });

  it('says where a case exists when it has no descriptor row', () => {
    expect(
      renderWriterProblem({
        code: 'case-exists',
        case: 'P_1',
        casebook: '/B',
        row: null,
        file: 'D.XLSX',
        folder: 'B/P_1'
      })
    ).toBe(
      'case P_1 already exists in /B (the folder B/P_1); choose another name or update it (--update)'
    );
  });
});

describe('readWriterProblem', () => {
  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    'reads %s, leaving the English out',
    (_code, problem) => {
      expect(
        readWriterProblem({ ...problem, message: 'English for logs.' })
      ).toEqual(problem);
    }
  );

  it.each<[string, unknown]>([
    ['nothing', null],
    ['text', 'could not write'],
    ['an unknown code', { code: 'later-code' }],
    ['a code inherited from Object', { code: 'constructor' }]
  ])('reads no code from %s', (_, value) => {
    expect(readWriterProblem(value)).toBeNull();
  });
});

/** Why a new case's name cannot be used, and its English. */
const NAME_PROBLEMS: Array<[CaseNameProblem, string]> = [
  [
    { code: 'unsafe', problem: { code: 'character', char: ' ' } },
    'The case name "A B" cannot be used: it contains the character " ". Use only letters, digits, "_", "." and "-", and no "..".'
  ],
  [
    { code: 'exists', row: 3 },
    'The casebook already has a case A B (row 3 of benchmark_desc.xlsx): choose another name or update it.'
  ]
];

describe('describeNameProblem', () => {
  it.each(NAME_PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, problem, text) => {
      expect(describeNameProblem('A B', problem)).toBe(text);
    }
  );

  it.each(NAME_PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function, the name problem included',
    (_code, problem) => {
      const sentence = describeNameProblem('A B', problem, shout);
      expect(leaks(sentence)).toEqual([]);
    }
  );
});
