/**
 * `junobench report <folder> [--html FILE] [--json]`: the cohort report over
 * learners' exported progress files (`*.json`) in a folder.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import { cohortHTML, cohortReport, cohortText } from '../progress/cohort';
import type { ICohortFile, ICohortProblem } from '../progress/cohort';
import { writeOutputFile } from './output';

/** The usage lines of `junobench report`. */
export const REPORT_USAGE = `  junobench report <folder> [--html FILE] [--json]`;

/**
 * Run `junobench report`; resolves with the exit code: 0 when every file was
 * counted, 1 when some were left out (each named on stderr with the reason),
 * 2 when the folder cannot be read or holds no readable progress file.
 */
export async function reportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      html: { type: 'string' },
      json: { type: 'boolean', default: false }
    }
  });
  if (positionals.length !== 1) {
    throw new Error(
      `expected one folder of exported progress files\nUsage:\n${REPORT_USAGE}`
    );
  }
  const folder = path.resolve(positionals[0]);
  const { files, unreadable } = readFolder(folder);
  const report = cohortReport(files);
  const problems: ICohortProblem[] = [...unreadable, ...report.problems];
  const full = { ...report, problems };
  if (values.json) {
    console.log(JSON.stringify(full, null, 2));
  } else {
    // The files left out go to stderr, below.
    process.stdout.write(cohortText(full, { listProblems: false }));
  }
  for (const p of problems) {
    console.error(`junobench report: skipped ${p.file}: ${p.reason}`);
  }
  if (values.html) {
    writeOutputFile(
      values.html,
      cohortHTML(full, {
        title: `JunoBench cohort report: ${path.basename(folder)}`,
        generatedAt: new Date()
      }),
      'the HTML report'
    );
    if (!values.json) {
      console.log(`HTML report written to ${values.html}`);
    }
  }
  if (report.learners.length === 0) {
    console.error(
      `junobench report: no readable progress export (*.json) in ${folder}`
    );
    return 2;
  }
  return problems.length ? 1 : 0;
}

/**
 * The `*.json` files directly in a folder (sorted by name), and those that
 * could not be read; throws when the folder itself cannot be read.
 */
export function readFolder(folder: string): {
  files: ICohortFile[];
  unreadable: ICohortProblem[];
} {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (reason) {
    throw new Error(
      `cannot read the folder ${folder}: ${(reason as Error).message}`
    );
  }
  const files: ICohortFile[] = [];
  const unreadable: ICohortProblem[] = [];
  for (const name of names.sort()) {
    if (!name.toLowerCase().endsWith('.json')) {
      continue;
    }
    const full = path.join(folder, name);
    try {
      if (!statSync(full).isFile()) {
        continue;
      }
      files.push({ name, text: readFileSync(full, 'utf8') });
    } catch (reason) {
      unreadable.push({
        file: name,
        reason: `cannot be read (${(reason as Error).message})`
      });
    }
  }
  return { files, unreadable };
}
