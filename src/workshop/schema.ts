/**
 * The workshop file's validator: `workshop.schema.json` compiled by Ajv, and
 * Ajv's first error as a sentence naming the field. Loaded on first use
 * (`parseWorkshop` imports it when it reads a file), so Ajv is not part of
 * the page's start-up. Pure.
 */
import Ajv from 'ajv';
import type { ErrorObject } from 'ajv';

import { nameProblem } from '../casebook/paths';
import { describeValue as describe } from '../progress/types';
import type { RevealPolicy } from '../repair/reveal';
import SCHEMA from './workshop.schema.json';

/** A workshop file as its JSON Schema describes it. */
export interface IWorkshopJSON {
  /** The title (not blank). */
  title: string;
  /** A sentence or two for the learners. */
  description?: string | null;
  /** The case names, in order, each once. */
  cases: string[];
  /** The reveal policy while the workshop is active. */
  revealPolicy: RevealPolicy;
  /** The time box in minutes. */
  timeBoxMinutes?: number | null;
  /** The casebook folder from the server root. */
  casebook?: string | null;
}

/**
 * What is wrong with a parsed workshop file, by the schema: the field and the
 * problem in words, or null when the file is valid.
 */
export function checkWorkshop(
  value: unknown
): { field: string; problem: string } | null {
  if (Private.validate(value)) {
    return null;
  }
  const [field, problem] = Private.explain(value, Private.validate.errors);
  return { field, problem };
}

namespace Private {
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
        return `expected one of ${SCHEMA.properties.revealPolicy.enum.join(', ')}, ${got}`;
      case 'timeBoxMinutes':
        return `expected a number of minutes above 0 and at most ${SCHEMA.properties.timeBoxMinutes.maximum}, ${got}`;
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
