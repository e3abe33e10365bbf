import * as fs from 'fs';
import * as path from 'path';

import { StateDB } from '@jupyterlab/statedb';
import Ajv from 'ajv';

import type { ICase, ICasebook } from '../../src/casebook/types';
import { loadLocalCasebook } from '../../src/cli/verify';
import { WorkshopManager } from '../../src/workshop/manager';
import {
  formatCountdown,
  playlist,
  timeBox
} from '../../src/workshop/playlist';
import {
  isWorkshopPath,
  parseWorkshop,
  WORKSHOP_PATTERN,
  WorkshopFormatError
} from '../../src/workshop/workshop';

const ROOT = path.resolve(__dirname, '../..');
const SCHEMA = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'docs/workshop.schema.json'), 'utf8')
);
const EXAMPLES = path.join(ROOT, 'demo/workshops');
const FILE = 'my.junobench-workshop.json';

/** The schema, compiled once (ajv is JupyterLab's own settings validator). */
const validate = new Ajv({ allErrors: true }).compile(SCHEMA);

const base = {
  title: 'Week 1',
  cases: ['NBspecific_1', 'numpy_1', 'pandas_1'],
  revealPolicy: 'after-pass'
};

/** Valid workshops, as the parser should read them. */
const valid: [string, Record<string, unknown>][] = [
  ['the three required fields', base],
  [
    'every field',
    {
      $schema: '../../docs/workshop.schema.json',
      ...base,
      description: 'Read the traceback first.',
      timeBoxMinutes: 30,
      casebook: 'JunoBench-demo'
    }
  ],
  ['a fractional time box', { ...base, timeBoxMinutes: 0.5 }],
  ['null optional fields', { ...base, timeBoxMinutes: null, casebook: null }]
];

/** Invalid workshops and the start of the expected message (after the file name). */
const invalid: [string, unknown, string][] = [
  [
    'a case that is a number',
    { ...base, cases: ['a', 'b', 42] },
    'cases[2]: expected a case name, got 42'
  ],
  [
    'no title',
    { cases: base.cases, revealPolicy: 'never' },
    'title: expected a non-empty string, got nothing'
  ],
  [
    'a blank title',
    { ...base, title: '  ' },
    'title: expected a non-empty string'
  ],
  [
    'no cases',
    { ...base, cases: [] },
    'cases: expected at least one case name'
  ],
  [
    'cases not an array',
    { ...base, cases: 'numpy_1' },
    'cases: expected an array of case names, got "numpy_1"'
  ],
  [
    'a repeated case',
    { ...base, cases: ['a', 'b', 'a'] },
    'cases[2]: "a" is already listed as cases[0]'
  ],
  [
    'an unsafe case name',
    { ...base, cases: ['../etc'] },
    'cases[0]: the case name "../etc"'
  ],
  [
    'an unknown policy',
    { ...base, revealPolicy: 'sometimes' },
    'revealPolicy: expected one of after-attempt, after-pass, always, never, got "sometimes"'
  ],
  ['no policy', { title: 'x', cases: ['a'] }, 'revealPolicy: expected one of'],
  [
    'a zero time box',
    { ...base, timeBoxMinutes: 0 },
    'timeBoxMinutes: expected a number of minutes above 0'
  ],
  [
    'a time box as text',
    { ...base, timeBoxMinutes: '45' },
    'timeBoxMinutes: expected a number of minutes above 0 and at most 1440, got "45"'
  ],
  [
    'a time box over a day',
    { ...base, timeBoxMinutes: 1441 },
    'timeBoxMinutes:'
  ],
  [
    'a casebook escaping the root',
    { ...base, casebook: 'a/../..' },
    'casebook: a ".." segment is not allowed'
  ],
  [
    'a casebook that is a number',
    { ...base, casebook: 7 },
    'casebook: expected a folder path'
  ],
  ['a misspelt field', { ...base, timebox: 30 }, 'timebox: unknown field'],
  ['an array', [base], '(file): expected a JSON object, got an array']
];

describe('parseWorkshop', () => {
  it.each(valid)('reads %s', async (_, doc) => {
    const workshop = await parseWorkshop(JSON.stringify(doc), FILE);
    expect(workshop.title).toBe(String(doc.title));
    expect(workshop.cases).toEqual(doc.cases);
    expect(workshop.revealPolicy).toBe(doc.revealPolicy);
    expect(workshop.timeBoxMinutes).toBe(doc.timeBoxMinutes ?? null);
    expect(workshop.casebook).toBe(doc.casebook ?? null);
  });

  it.each(invalid)(
    'rejects %s, naming the file and field',
    async (_, doc, message) => {
      let error: unknown;
      try {
        await parseWorkshop(JSON.stringify(doc), FILE);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WorkshopFormatError);
      expect((error as Error).message.startsWith(`${FILE}: ${message}`)).toBe(
        true
      );
    }
  );

  it('rejects text that is not JSON, naming the file', async () => {
    await expect(
      parseWorkshop('{"title": ', 'w/x.junobench-workshop.json')
    ).rejects.toThrow(
      /^w\/x\.junobench-workshop\.json: \(file\): not valid JSON/
    );
  });

  it('strips slashes around the casebook path', async () => {
    expect(
      (
        await parseWorkshop(
          JSON.stringify({ ...base, casebook: '/JunoBench/' }),
          FILE
        )
      ).casebook
    ).toBe('JunoBench');
  });
});

describe('docs/workshop.schema.json', () => {
  it.each(valid)('accepts %s, like the parser', (_, doc) => {
    expect(validate(doc)).toBe(true);
  });

  it.each(invalid)('rejects %s, like the parser', (_, doc) => {
    expect(validate(doc)).toBe(false);
  });

  it('is the very schema the parser validates with', () => {
    expect(fs.realpathSync(path.join(ROOT, 'docs/workshop.schema.json'))).toBe(
      fs.realpathSync(path.join(ROOT, 'src/workshop/workshop.schema.json'))
    );
  });

  it('decides what the parser accepts: a case name the schema refuses is refused', async () => {
    // 256 safe characters: only the schema's maxLength refuses it.
    const long = 'a'.repeat(256);
    expect(validate({ ...base, cases: [long] })).toBe(false);
    await expect(
      parseWorkshop(JSON.stringify({ ...base, cases: [long] }), FILE)
    ).rejects.toThrow(
      /^my\.junobench-workshop\.json: cases\[0\]: the case name/
    );
  });

  const examples = fs
    .readdirSync(EXAMPLES)
    .filter(name => isWorkshopPath(name));

  it('has example workshops to check', () => {
    expect(examples).toContain('intro.junobench-workshop.json');
  });

  it.each(examples)(
    'validates the example %s with the schema and the parser, over the demo casebook',
    async name => {
      const text = fs.readFileSync(path.join(EXAMPLES, name), 'utf8');
      expect(validate(JSON.parse(text))).toBe(true);
      const workshop = await parseWorkshop(text, name);
      const book = await loadLocalCasebook(
        path.join(ROOT, workshop.casebook ?? 'demo/casebook')
      );
      expect(playlist(book, workshop).missing).toEqual([]);
    }
  );
});

describe('workshop file names', () => {
  it.each([
    ['intro.junobench-workshop.json', true, true],
    ['a/b/Week 1.JUNOBENCH-WORKSHOP.JSON', true, false],
    ['intro.json', false, false],
    ['.junobench-workshop.json', false, false],
    ['junobench-workshop.json.bak', false, false]
  ])(
    '%s: a workshop path %s; matches the file-type pattern %s',
    (name, isPath, matches) => {
      expect(isWorkshopPath(name)).toBe(isPath);
      expect(new RegExp(WORKSHOP_PATTERN).test(path.posix.basename(name))).toBe(
        matches
      );
    }
  );
});

describe('playlist', () => {
  const book: ICasebook = {
    name: 'demo',
    root: 'demo',
    cases: ['pandas_1', 'NBspecific_1', 'numpy_1', 'sklearn_1'].map(
      name => ({ name }) as ICase
    ),
    problems: [],
    hasDiagnoses: true
  };

  it('keeps only the workshop cases, in the workshop order, and names the missing ones', async () => {
    const workshop = await parseWorkshop(
      JSON.stringify({ ...base, cases: ['numpy_1', 'gone_1', 'pandas_1'] }),
      FILE
    );
    const result = playlist(book, workshop);
    expect(result.casebook.cases.map(c => c.name)).toEqual([
      'numpy_1',
      'pandas_1'
    ]);
    expect(result.missing).toEqual(['gone_1']);
    expect(result.casebook.name).toBe('demo');
    expect(book.cases).toHaveLength(4);
  });
});

describe('time box', () => {
  const start = '2026-01-01T10:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it.each([
    [null, '2026-01-01T10:10:00Z', null],
    [45, '2026-01-01T10:00:00Z', 45 * 60_000],
    [45, '2026-01-01T10:44:30Z', 30_000],
    [45, '2026-01-01T10:45:00Z', 0],
    [45, '2026-01-01T12:00:00Z', 0]
  ])('%s minutes at %s leaves %s ms', (minutes, now, remaining) => {
    const box = timeBox(start, minutes, at(now));
    if (remaining === null) {
      expect(box).toBeNull();
    } else {
      expect(box?.remainingMs).toBe(remaining);
      expect(box?.over).toBe(remaining === 0);
      expect(box?.endsAt).toBe(at(start) + (minutes ?? 0) * 60_000);
    }
  });

  it.each([
    [0, '0:00'],
    [1, '0:01'],
    [59_001, '1:00'],
    [45 * 60_000, '45:00'],
    [3_723_000, '1:02:03'],
    [-5, '0:00']
  ])('%s ms reads %s', (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});

describe('WorkshopManager', () => {
  const files: Record<string, string> = {
    'w/intro.junobench-workshop.json': JSON.stringify({
      ...base,
      timeBoxMinutes: 45
    }),
    'w/bad.junobench-workshop.json': JSON.stringify({ ...base, cases: [1] })
  };
  const read = async (p: string) => {
    if (!(p in files)) {
      throw new Error('No such file');
    }
    return files[p];
  };
  let clock = new Date('2026-01-01T10:00:00Z');
  const now = () => clock;

  it('opens a workshop, keeps it across a reload and leaves it', async () => {
    const state = new StateDB();
    const manager = new WorkshopManager({ state, read, now });
    await manager.ready;
    expect(manager.active).toBeNull();
    expect(manager.revealPolicy).toBeNull();
    let emitted = 0;
    manager.changed.connect(() => (emitted += 1));

    const active = await manager.open('w/intro.junobench-workshop.json');
    expect(active.workshop.title).toBe('Week 1');
    expect(active.startedAt).toBe('2026-01-01T10:00:00.000Z');
    expect(manager.revealPolicy).toBe('after-pass');
    expect(emitted).toBe(1);

    // Opening the same workshop again later keeps the countdown running.
    clock = new Date('2026-01-01T10:20:00Z');
    expect(
      (await manager.open('w/intro.junobench-workshop.json')).startedAt
    ).toBe('2026-01-01T10:00:00.000Z');

    const reloaded = new WorkshopManager({ state, read, now });
    await reloaded.ready;
    expect(reloaded.active?.path).toBe('w/intro.junobench-workshop.json');
    expect(reloaded.active?.workshop.cases).toEqual(base.cases);
    expect(reloaded.active?.startedAt).toBe('2026-01-01T10:00:00.000Z');

    await reloaded.leave();
    expect(reloaded.active).toBeNull();
    const again = new WorkshopManager({ state, read, now });
    await again.ready;
    expect(again.active).toBeNull();
  });

  it('rejects a bad or missing file naming it, and keeps the active workshop', async () => {
    const manager = new WorkshopManager({ state: new StateDB(), read, now });
    await manager.open('w/intro.junobench-workshop.json');
    await expect(manager.open('w/bad.junobench-workshop.json')).rejects.toThrow(
      'w/bad.junobench-workshop.json: cases[0]: expected a case name, got 1'
    );
    await expect(
      manager.open('w/none.junobench-workshop.json')
    ).rejects.toThrow(
      /^w\/none\.junobench-workshop\.json: cannot be read \(No such file\)/
    );
    expect(manager.active?.path).toBe('w/intro.junobench-workshop.json');
  });

  it('drops a saved workshop that no longer reads', async () => {
    const state = new StateDB();
    await state.save(WorkshopManager.STATE_KEY, {
      path: 'x.junobench-workshop.json',
      startedAt: '2026-01-01T10:00:00Z',
      workshop: { title: 'x', cases: [], revealPolicy: 'never' }
    });
    const warn = jest
      .spyOn(console, 'warn')
      .mockImplementation(() => undefined);
    try {
      const manager = new WorkshopManager({ state, read, now });
      await manager.ready;
      expect(manager.active).toBeNull();
      expect(await state.fetch(WorkshopManager.STATE_KEY)).toBeUndefined();
      expect(warn).toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
