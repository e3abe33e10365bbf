/**
 * The workshop file (`*.junobench-workshop.json`): an instructor's playlist of
 * cases with a reveal policy and an optional time box. Pure: parsing and
 * checking only, no DOM and no file access. What a valid workshop is, is said
 * once: `workshop.schema.json` beside this file (also at
 * `docs/workshop.schema.json`), checked with Ajv in `schema.ts`, which turns
 * Ajv's first error into the field and a problem code (`problems.ts`).
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import type { RevealPolicy } from '../repair/reveal';
import { FILE_FIELD, renderWorkshopError } from './problems';
import type { IWorkshopProblemAt, WorkshopProblem } from './problems';
import type { IWorkshopJSON } from './schema';

/** The name every workshop file ends with. */
export const WORKSHOP_SUFFIX = '.junobench-workshop.json';

/** A pattern matching a workshop file name (for the document registry). */
export const WORKSHOP_PATTERN = '^.+\\.junobench-workshop\\.json$';

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
 * A workshop file that cannot be used: the file, the offending field (null
 * when the file could not be read) and the problem as a code; the UI renders
 * it with `render(__)`, the message is its English rendering, e.g.
 * `intro.junobench-workshop.json: cases[2]: expected a case name, got 42`.
 */
export class WorkshopFormatError extends Error implements IWorkshopProblemAt {
  /** Create an error naming the file, the field and the problem. */
  constructor(
    readonly file: string,
    readonly field: string | null,
    readonly problem: WorkshopProblem
  ) {
    super(renderWorkshopError({ file, field, problem }));
    this.name = 'WorkshopFormatError';
  }

  /** The error in words: translated when `__` is, else its English message. */
  render(__: Translate = english): string {
    return renderWorkshopError(this, __);
  }
}

/** Whether a file name is a workshop file's. */
export function isWorkshopPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return name.length > WORKSHOP_SUFFIX.length && name.endsWith(WORKSHOP_SUFFIX);
}

/**
 * Read a workshop file; rejects with `WorkshopFormatError` naming the file
 * (`path`) and the offending field.
 */
export async function parseWorkshop(
  text: string,
  path: string
): Promise<IWorkshop> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WorkshopFormatError(path, FILE_FIELD, {
      code: 'not-json',
      detail: (error as Error).message
    });
  }
  // The validator (Ajv and the schema) loads on first use, not with the page.
  const { checkWorkshop } = await import('./schema');
  const wrong = checkWorkshop(parsed);
  if (wrong) {
    throw new WorkshopFormatError(path, wrong.field, wrong.problem);
  }
  const record = parsed as IWorkshopJSON;
  return {
    title: record.title.trim(),
    description: record.description ?? null,
    cases: [...record.cases],
    revealPolicy: record.revealPolicy,
    timeBoxMinutes: record.timeBoxMinutes ?? null,
    // The schema refuses `..` segments, so stripping slashes cannot make one.
    casebook:
      record.casebook === undefined || record.casebook === null
        ? null
        : record.casebook.replace(/^\/+|\/+$/g, '')
  };
}
