/**
 * The workshop file (`*.junobench-workshop.json`): an instructor's playlist of
 * cases with a reveal policy and an optional time box. Pure: parsing and
 * checking only, no DOM and no file access. The JSON Schema of the same format
 * is `docs/workshop.schema.json`.
 */
import { nameProblem } from '../casebook/paths';
import { describeValue as describe } from '../progress/types';
import { REVEAL_POLICIES } from '../repair/reveal';
import type { RevealPolicy } from '../repair/reveal';

/** The name every workshop file ends with. */
export const WORKSHOP_SUFFIX = '.junobench-workshop.json';

/** A pattern matching a workshop file name (for the document registry). */
export const WORKSHOP_PATTERN = '^.+\\.junobench-workshop\\.json$';

/** The longest time box accepted, in minutes (a day). */
export const MAX_TIME_BOX_MINUTES = 24 * 60;

/** An instructor's workshop, read from a workshop file. */
export interface IWorkshop {
  /** The title shown at the top of the panel. */
  readonly title: string;
  /** A sentence or two for the learners, or null. */
  readonly description: string | null;
  /** The case names, in the order the learners work through them. */
  readonly cases: readonly string[];
  /** The reveal policy while the workshop is active (the learner's setting is ignored). */
  readonly revealPolicy: RevealPolicy;
  /** The time box in minutes, or null for none. */
  readonly timeBoxMinutes: number | null;
  /** The casebook folder (server path from the root), or null for the casebook already loaded. */
  readonly casebook: string | null;
}

/**
 * A workshop file that cannot be used; the message names the file, the
 * offending field and what is wrong, e.g.
 * `intro.junobench-workshop.json: cases[2]: expected a case name, got 42`.
 */
export class WorkshopFormatError extends Error {
  /** Create an error naming the file, the field and the problem. */
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string
  ) {
    super(`${file}: ${field}: ${problem}`);
    this.name = 'WorkshopFormatError';
  }
}

/** Whether a file name is a workshop file's. */
export function isWorkshopPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return name.length > WORKSHOP_SUFFIX.length && name.endsWith(WORKSHOP_SUFFIX);
}

/**
 * Read a workshop file; throws `WorkshopFormatError` naming the file (`path`)
 * and the offending field.
 */
export function parseWorkshop(text: string, path: string): IWorkshop {
  const fail = (field: string, problem: string): never => {
    throw new WorkshopFormatError(path, field, problem);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return fail('(file)', `not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return fail('(file)', `expected a JSON object, got ${describe(parsed)}`);
  }
  const record = parsed as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Private.FIELDS.includes(key)) {
      fail(
        key,
        `unknown field; a workshop has ${Private.FIELDS.filter(f => f !== '$schema').join(', ')}`
      );
    }
  }

  const title = record.title;
  if (typeof title !== 'string' || title.trim() === '') {
    fail('title', `expected a non-empty string, got ${describe(title)}`);
  }

  const description = record.description ?? null;
  if (description !== null && typeof description !== 'string') {
    fail('description', `expected a string, got ${describe(description)}`);
  }

  const rawCases = record.cases;
  if (!Array.isArray(rawCases)) {
    return fail(
      'cases',
      `expected an array of case names, got ${describe(rawCases)}`
    );
  }
  if (rawCases.length === 0) {
    fail('cases', 'expected at least one case name, got an empty array');
  }
  const seen = new Map<string, number>();
  const cases = rawCases.map((item, i) => {
    if (typeof item !== 'string') {
      return fail(`cases[${i}]`, `expected a case name, got ${describe(item)}`);
    }
    const problem = nameProblem(item);
    if (problem !== null) {
      fail(`cases[${i}]`, `the case name ${JSON.stringify(item)} ${problem}`);
    }
    const before = seen.get(item);
    if (before !== undefined) {
      fail(
        `cases[${i}]`,
        `${JSON.stringify(item)} is already listed as cases[${before}]`
      );
    }
    seen.set(item, i);
    return item;
  });

  const policy = record.revealPolicy;
  if (
    typeof policy !== 'string' ||
    !(REVEAL_POLICIES as readonly string[]).includes(policy)
  ) {
    fail(
      'revealPolicy',
      `expected one of ${REVEAL_POLICIES.join(', ')}, got ${describe(policy)}`
    );
  }

  const box = record.timeBoxMinutes ?? null;
  if (
    box !== null &&
    (typeof box !== 'number' ||
      !Number.isFinite(box) ||
      box <= 0 ||
      box > MAX_TIME_BOX_MINUTES)
  ) {
    fail(
      'timeBoxMinutes',
      `expected a number of minutes above 0 and at most ${MAX_TIME_BOX_MINUTES}, got ${describe(box)}`
    );
  }

  const rawBook = record.casebook ?? null;
  let casebook: string | null = null;
  if (rawBook !== null) {
    if (typeof rawBook !== 'string') {
      return fail(
        'casebook',
        `expected a folder path from the server root, got ${describe(rawBook)}`
      );
    }
    casebook = rawBook.trim().replace(/^\/+|\/+$/g, '');
    if (casebook.includes('\0') || casebook.includes('\\')) {
      fail(
        'casebook',
        `expected a folder path with "/", got ${describe(rawBook)}`
      );
    }
    if (casebook.split('/').includes('..')) {
      fail(
        'casebook',
        `a ".." segment is not allowed, got ${describe(rawBook)}`
      );
    }
  }

  return {
    title: (title as string).trim(),
    description: description as string | null,
    cases,
    revealPolicy: policy as RevealPolicy,
    timeBoxMinutes: box as number | null,
    casebook
  };
}

/** Private constants of the workshop format. */
namespace Private {
  /** The fields a workshop file may have. */
  export const FIELDS: readonly string[] = [
    '$schema',
    'title',
    'description',
    'cases',
    'revealPolicy',
    'timeBoxMinutes',
    'casebook'
  ];
}
