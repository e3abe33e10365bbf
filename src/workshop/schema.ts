/**
 * The workshop file's validator: `workshop.schema.json` compiled by Ajv, and
 * Ajv's first error as the field and a problem code (`problems.ts` renders
 * it). Loaded on first use (`parseWorkshop` imports it when it reads a file),
 * so Ajv is not part of the page's start-up. Pure.
 */
import Ajv from 'ajv';
import type { ErrorObject } from 'ajv';

import type { RevealPolicy } from '../repair/reveal';
import { nameProblem } from '../casebook/paths';
import { FILE_FIELD, workshopValue } from './problems';
import type { WorkshopProblem } from './problems';
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
 * problem as a code with parameters, or null when the file is valid.
 */
export function checkWorkshop(
  value: unknown
): { field: string; problem: WorkshopProblem } | null {
  if (Private.validate(value)) {
    return null;
  }
  return Private.explain(value, Private.validate.errors);
}

namespace Private {
  /** The schema, compiled once (Ajv is also JupyterLab's own settings validator). */
  export const validate = new Ajv().compile<IWorkshopJSON>(SCHEMA);

  /**
   * The field and the problem, as a code, of the first error Ajv reports.
   */
  export function explain(
    value: unknown,
    errors: ErrorObject[] | null | undefined
  ): { field: string; problem: WorkshopProblem } {
    const error = errors?.[0];
    const record = value as Record<string, unknown>;
    if (!error || error.instancePath === '') {
      if (error?.keyword === 'additionalProperties') {
        const fields = Object.keys(SCHEMA.properties).filter(
          f => f !== '$schema'
        );
        return {
          field: String(error.params.additionalProperty),
          problem: { code: 'unknown-field', fields }
        };
      }
      if (error?.keyword === 'required') {
        const key = String(error.params.missingProperty);
        return { field: key, problem: fieldProblem(key, undefined, error) };
      }
      return {
        field: FILE_FIELD,
        problem: { code: 'not-object', got: workshopValue(value) }
      };
    }
    const [, key, item] = error.instancePath.split('/');
    if (key === 'cases' && item !== undefined) {
      const name = (record.cases as unknown[])[Number(item)];
      return { field: `cases[${item}]`, problem: caseProblem(name, error) };
    }
    if (key === 'cases' && error.keyword === 'uniqueItems') {
      const { i, j } = error.params as { i: number; j: number };
      const [first, again] = [Math.min(i, j), Math.max(i, j)];
      return {
        field: `cases[${again}]`,
        problem: {
          code: 'case-repeated',
          name: String((record.cases as unknown[])[again]),
          first
        }
      };
    }
    return { field: key, problem: fieldProblem(key, record[key], error) };
  }

  /**
   * What is wrong with one case name, by the schema keyword it fails.
   */
  function caseProblem(name: unknown, error: ErrorObject): WorkshopProblem {
    if (typeof name !== 'string') {
      return { code: 'case-type', got: workshopValue(name) };
    }
    // The schema's length and pattern say the one case-name rule; nameProblem says why.
    const problem = nameProblem(name);
    return problem
      ? { code: 'case-name', name, problem }
      : schemaProblem(name, error);
  }

  /**
   * What a field must be, and what it was.
   */
  function fieldProblem(
    key: string,
    value: unknown,
    error: ErrorObject
  ): WorkshopProblem {
    const got = workshopValue(value);
    switch (key) {
      case 'title':
        return { code: 'title', got };
      case 'description':
        return { code: 'description', got };
      case 'cases':
        return error.keyword === 'minItems'
          ? { code: 'no-cases' }
          : { code: 'cases', got };
      case 'revealPolicy':
        return {
          code: 'reveal-policy',
          allowed: [...SCHEMA.properties.revealPolicy.enum],
          got
        };
      case 'timeBoxMinutes':
        return {
          code: 'time-box',
          maximum: SCHEMA.properties.timeBoxMinutes.maximum,
          got
        };
      case 'casebook':
        return typeof value !== 'string'
          ? { code: 'casebook', got }
          : value.split('/').includes('..')
            ? { code: 'casebook-dot-dot', got }
            : { code: 'casebook-characters', got };
      default:
        return schemaProblem(value, error);
    }
  }

  /** The catch-all: Ajv's keyword and parameters, and the value. */
  function schemaProblem(value: unknown, error: ErrorObject): WorkshopProblem {
    return {
      code: 'schema',
      keyword: error.keyword,
      params: { ...error.params },
      got: workshopValue(value)
    };
  }
}
