/**
 * `junobench doctor [<casebook>...] [--json] [--python PYTHON]`: what works
 * here and what to run about what does not. The Python side reports its facts
 * as JSON (`python -m jupyterlab_junobench.doctor`); the casebooks are loaded
 * here; `doctorChecks.ts` judges them.
 */
import { execFile } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import {
  casebookFacts,
  doctorChecks,
  doctorExitCode,
  renderDoctor,
  SETUP_FIX
} from './doctorChecks';
import type {
  ICasebookFacts,
  IDoctorFacts,
  IPythonFacts,
  IUnreadableCasebook
} from './doctorChecks';
import { packagePython } from './fetch';
import { loadLocalCasebook } from './verify';

/** The usage line of `doctor`. */
export const DOCTOR_USAGE = `  junobench doctor [<casebook>...] [--json] [--python PYTHON]
                   (what works here and the command that fixes what does not: the server
                   extension, the pinned and container kernels and their drift from the pins,
                   a container engine that starts a container, the casebooks' runnable cases
                   and missing datasets; default casebooks: the bundled demo and ./JunoBench)`;

/**
 * `junobench doctor`; resolves with the exit code (1 when something does not work).
 */
export async function doctorCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      python: { type: 'string' }
    }
  });
  const started = Date.now();
  const facts: IDoctorFacts = { python: null, casebooks: [] };
  try {
    facts.python = await Private.pythonFacts(packagePython(values.python));
  } catch (reason) {
    facts.pythonError = (reason as Error).message;
  }
  const dirs = positionals.length
    ? positionals
    : Private.defaultCasebooks(facts.python);
  for (const dir of dirs) {
    facts.casebooks.push(await Private.casebook(dir));
  }
  const checks = doctorChecks(facts);
  const seconds = (Date.now() - started) / 1000;
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          version: 1,
          date: new Date(started).toISOString(),
          seconds,
          node: process.version,
          platform: `${process.platform}-${process.arch}`,
          checks,
          facts
        },
        null,
        2
      )
    );
  } else {
    console.log(renderDoctor(checks, seconds));
  }
  return doctorExitCode(checks);
}

namespace Private {
  /** Run the Python side and parse its JSON. */
  export function pythonFacts(python: string): Promise<IPythonFacts> {
    return new Promise((resolve, reject) => {
      execFile(
        python,
        ['-m', 'jupyterlab_junobench.doctor'],
        { timeout: 300000, maxBuffer: 8 << 20 },
        (error, stdout, stderr) => {
          if (error) {
            const last = String(stderr).trim().split('\n').slice(-1)[0];
            reject(
              new Error(
                `${python} -m jupyterlab_junobench.doctor did not answer (${last || error.message}); ${SETUP_FIX}`
              )
            );
            return;
          }
          try {
            resolve(JSON.parse(String(stdout)) as IPythonFacts);
          } catch {
            reject(
              new Error(
                `${python} -m jupyterlab_junobench.doctor printed no JSON`
              )
            );
          }
        }
      );
    });
  }

  /** The bundled demo, and the casebooks the panel would find in this folder. */
  export function defaultCasebooks(python: IPythonFacts | null): string[] {
    const demo =
      python?.demoCasebook ?? path.resolve(__dirname, '../../demo/casebook');
    const found = [demo];
    const here = path.resolve('JunoBench');
    if (existsSync(path.join(here, 'benchmark_desc.xlsx'))) {
      found.push(here);
    }
    if (existsSync('benchmark_desc.xlsx')) {
      found.push(path.resolve('.'));
    }
    return found;
  }

  /** Load one casebook; an unreadable one is a finding, not an error. */
  export async function casebook(
    dir: string
  ): Promise<ICasebookFacts | IUnreadableCasebook> {
    try {
      return casebookFacts(dir, await loadLocalCasebook(dir));
    } catch (reason) {
      return { dir, error: (reason as Error).message };
    }
  }
}
