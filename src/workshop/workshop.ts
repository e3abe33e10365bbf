/**
 * The workshop file (`*.junobench-workshop.json`): an instructor's playlist of
 * cases with a reveal policy and an optional time box. Pure: parsing and
 * checking only, no DOM and no file access. What a valid workshop is, is said
 * once: `workshop.schema.json` beside this file (also at
 * `docs/workshop.schema.json`), checked with Ajv; this module only turns
 * Ajv's first error into a sentence naming the field.
 */
import Ajv from 'ajv';
import type { ErrorObject } from 'ajv';

import { nameProblem } from '../casebook/paths';
import { describeValue as describe } from '../progress/types';
import { REVEAL_POLICIES } from '../repair/reveal';
import type { RevealPolicy } from '../repair/reveal';
import SCHEMA from './workshop.schema.json';

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WorkshopFormatError(
      path,
      '(file)',
      `not valid JSON (${(error as Error).message})`
    );
  }
  // The JSON Schema decides what a valid workshop is; its first error becomes one sentence.
  if (!Private.validate(parsed)) {
    const [field, problem] = Private.explain(parsed, Private.validate.errors);
    throw new WorkshopFormatError(path, field, problem);
  }
  const record = parsed as unknown as Private.IWorkshopJSON;
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

/** Private helpers of the workshop format. */
namespace Private {
  /** A workshop file as the schema describes it. */
  export interface IWorkshopJSON {
    title: string;
    description?: string | null;
    cases: string[];
    revealPolicy: RevealPolicy;
    timeBoxMinutes?: number | null;
    casebook?: string | null;
  }

  /** The schema, compiled once (Ajv is also JupyterLab's own settings validator). */
  export const validate = new Ajv().compile<IWorkshopJSON>(SCHEMA);

  /**
   * The field and the problem, in words, of the first error Ajv reports.
   */
  export function explain(
    value: unknown,
    errors: ErrorObject[] | null | undefined
  ): [string, string] {
    const error = errors?.[0];
    const record = value as Record<string, unknown>;
    if (!error || error.instancePath === '') {
      if (error?.keyword === 'additionalProperties') {
        const key = String(error.params.additionalProperty);
        const fields = Object.keys(SCHEMA.properties).filter(
          f => f !== '$schema'
        );
        return [key, `unknown field; a workshop has ${fields.join(', ')}`];
      }
      if (error?.keyword === 'required') {
        const key = String(error.params.missingProperty);
        return [key, fieldProblem(key, undefined)];
      }
      return ['(file)', `expected a JSON object, got ${describe(value)}`];
    }
    const [, key, item] = error.instancePath.split('/');
    if (key === 'cases' && item !== undefined) {
      const name = (record.cases as unknown[])[Number(item)];
      return [
        `cases[${item}]`,
        typeof name === 'string'
          ? `the case name ${JSON.stringify(name)} ${nameProblem(name) ?? 'is not a case name'}`
          : `expected a case name, got ${describe(name)}`
      ];
    }
    if (key === 'cases' && error.keyword === 'uniqueItems') {
      const { i, j } = error.params as { i: number; j: number };
      const [first, again] = [Math.min(i, j), Math.max(i, j)];
      return [
        `cases[${again}]`,
        `${JSON.stringify((record.cases as unknown[])[again])} is already listed as cases[${first}]`
      ];
    }
    return [key, fieldProblem(key, record[key], error.keyword)];
  }

  /**
   * What a field must be, and what it was.
   */
  function fieldProblem(key: string, value: unknown, keyword = ''): string {
    const got = `got ${describe(value)}`;
    switch (key) {
      case 'title':
        return `expected a non-empty string, ${got}`;
      case 'description':
        return `expected a string, ${got}`;
      case 'cases':
        return keyword === 'minItems'
          ? 'expected at least one case name, got an empty array'
          : `expected an array of case names, ${got}`;
      case 'revealPolicy':
        return `expected one of ${REVEAL_POLICIES.join(', ')}, ${got}`;
      case 'timeBoxMinutes':
        return `expected a number of minutes above 0 and at most ${MAX_TIME_BOX_MINUTES}, ${got}`;
      case 'casebook':
        return typeof value !== 'string'
          ? `expected a folder path from the server root, ${got}`
          : value.split('/').includes('..')
            ? `a ".." segment is not allowed, ${got}`
            : `expected a folder path with "/", ${got}`;
      default:
        return `does not match the workshop schema (${keyword}), ${got}`;
    }
  }
}
