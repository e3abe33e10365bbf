/**
 * The bridge from the command line to the one writer of cases, the Python
 * module `jupyterlab_junobench.authoring` (openpyxl for the workbooks). The
 * writer answers codes with parameters; they are worded here in English
 * (`renderWriterProblem`).
 */
import { spawn } from 'child_process';

import type { ICaseSpec } from '../authoring/spec';
import {
  readWriterProblem,
  renderWriterProblem
} from '../authoring/writerProblems';
import type { WriterProblem } from '../authoring/writerProblems';
import type { INotebookJSON } from '../replay/types';

/** What the writer did. */
export interface IWriteResult {
  /** Case name ('' for a new casebook). */
  case: string;
  /** Casebook-relative files written. */
  files: string[];
  /** Backups kept (`benchmark_desc.xlsx.bak`, …). */
  backups: string[];
  /** What the author should know (a shortened traceback, …), in English. */
  warnings: string[];
}

/** The writer's refusal: its code with parameters, worded in English. */
export class WriterError extends Error {
  /** Keep the code; the message is its English. */
  constructor(
    readonly problem: WriterProblem,
    /** The writer's own English (for logs), which the message matches. */
    readonly writerMessage: string | null
  ) {
    super(renderWriterProblem(problem));
    this.name = 'WriterError';
  }
}

/** The Python that runs the writer: `$JUNOBENCH_PYTHON`, else `python3`. */
export function writerPython(): string {
  return process.env.JUNOBENCH_PYTHON || 'python3';
}

/**
 * Create an empty casebook folder with the descriptor files the loader accepts.
 */
export function newCasebook(
  dir: string,
  python?: string
): Promise<IWriteResult> {
  return Private.run(python, ['new-casebook', dir]);
}

/**
 * Write a case into a casebook; data paths are relative to `dataRoot`.
 */
export function writeCase(
  casebookDir: string,
  spec: ICaseSpec,
  dataRoot: string | null,
  python?: string
): Promise<IWriteResult> {
  return Private.run(
    python,
    [
      'write-case',
      '--casebook',
      casebookDir,
      ...(dataRoot ? ['--data-root', dataRoot] : [])
    ],
    spec
  );
}

/**
 * Write `<case>_fixed.ipynb` of an existing case.
 */
export function writeFixed(
  casebookDir: string,
  name: string,
  notebook: INotebookJSON,
  python?: string
): Promise<IWriteResult> {
  return Private.run(
    python,
    ['write-fixed', '--casebook', casebookDir, '--case', name],
    notebook
  );
}

/**
 * Mark a case as a draft saying why (DRAFT.md), or as verified (reason null).
 */
export async function setDraft(
  casebookDir: string,
  name: string,
  reason: string | null,
  python?: string
): Promise<void> {
  await Private.run(python, [
    'set-draft',
    '--casebook',
    casebookDir,
    '--case',
    name,
    ...(reason === null ? [] : ['--reason', reason])
  ]);
}

namespace Private {
  /** A warning of the writer in English (its own words for a code not known here). */
  export function words(warning: unknown): string {
    const problem = readWriterProblem(warning);
    if (problem) {
      return renderWriterProblem(problem);
    }
    const own = (warning as { message?: unknown } | null)?.message;
    return typeof own === 'string' ? own : String(warning);
  }

  /**
   * Run `python -m jupyterlab_junobench.authoring <args>` with `input` as JSON
   * on stdin; resolves with its JSON answer, rejects with its error sentence.
   */
  export function run(
    python: string | undefined,
    args: string[],
    input?: unknown
  ): Promise<IWriteResult> {
    const command = python ?? writerPython();
    return new Promise((resolve, reject) => {
      const child = spawn(
        command,
        ['-m', 'jupyterlab_junobench.authoring', ...args],
        { stdio: ['pipe', 'pipe', 'pipe'] }
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', chunk => (stdout += String(chunk)));
      child.stderr.on('data', chunk => (stderr += String(chunk)));
      child.on('error', error =>
        reject(
          new Error(
            `could not run ${command} (set JUNOBENCH_PYTHON to a Python with jupyterlab-junobench installed): ${error.message}`
          )
        )
      );
      child.on('close', code => {
        let answer: Record<string, unknown> | null = null;
        try {
          answer = JSON.parse(stdout.trim().split('\n').pop() ?? '');
        } catch {
          answer = null;
        }
        const problem = readWriterProblem(answer?.error);
        if (answer && answer.ok === true) {
          resolve({
            case: String(answer.case ?? ''),
            files: (answer.files as string[]) ?? [],
            backups: (answer.backups as string[]) ?? [],
            warnings: (Array.isArray(answer.warnings)
              ? answer.warnings
              : []
            ).map(words)
          });
        } else if (problem) {
          const own = (answer?.error as { message?: unknown }).message;
          reject(
            new WriterError(problem, typeof own === 'string' ? own : null)
          );
        } else if (/No module named/.test(stderr)) {
          reject(
            new Error(
              `${command} has no jupyterlab_junobench module: install jupyterlab-junobench there or set JUNOBENCH_PYTHON`
            )
          );
        } else {
          reject(
            new Error(
              `the case writer failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`
            )
          );
        }
      });
      child.stdin.end(input === undefined ? '' : JSON.stringify(input));
    });
  }
}
