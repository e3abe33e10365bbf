/**
 * `junobench add` and `junobench new`: the headless twins of "Save as JunoBench
 * Case…" and "New JunoBench Casebook…". The recorded order comes from the
 * notebook's saved execution counts and `[reexecute]` markers; the case is
 * written by the one writer (jupyterlab_junobench.authoring), then verified,
 * and stays a draft (DRAFT.md says why) until it verifies.
 */
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import {
  describeNameProblem,
  describeNote,
  describeRecordProblem
} from '../authoring/messages';
import { fixedNotebook, recordFromCounts } from '../authoring/record';
import { caseNameProblem, caseSpec, parseLabelArgs } from '../authoring/spec';
import { parseNotebook } from '../casebook/notebook';
import { terminalSafe } from '../casebook/display';
import type { INotebookJSON } from '../replay/types';
import { draftReason } from '../verify/case';
import { KERNEL_OPTIONS, serverForOptions } from './server';
import { loadLocalCasebook, verifyCasebook } from './verify';
import type { ICaseReport } from './verify';
import { newCasebook, setDraft, writeCase } from './writer';

/** Usage of `junobench add` and `junobench new`. */
export const ADD_USAGE = `  junobench add <casebook> <case> --reproduced NB [--fixed NB] [--data PATH...]
                   [--label key=value...] [--diagnosis TEXT] [--dataset-title T]
                   [--dataset-license L] [--dataset-url U] [--update] [--no-verify]
                   [--kernel NAME] [--timeout SECONDS] [--server URL --token T [--server-root DIR]]
  junobench new <casebook>`;

/**
 * `junobench new <casebook>`: create an empty casebook; 0 on success, 2 on bad input.
 */
export async function newCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {}
  });
  if (positionals.length !== 1) {
    throw new Error(`expected one casebook folder\n${ADD_USAGE}`);
  }
  const dir = path.resolve(positionals[0]);
  const result = await newCasebook(dir);
  console.log(`Created the casebook ${dir} (${result.files.join(', ')}).`);
  return 0;
}

/**
 * `junobench add`: write the case, verify it, keep it a draft when it does not
 * verify; 0 when it verifies, 1 when it is a draft, 2 on bad input.
 */
export async function addCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      reproduced: { type: 'string' },
      fixed: { type: 'string' },
      data: { type: 'string', multiple: true, default: [] },
      label: { type: 'string', multiple: true, default: [] },
      diagnosis: { type: 'string', default: '' },
      'dataset-title': { type: 'string', default: '' },
      'dataset-license': { type: 'string', default: '' },
      'dataset-url': { type: 'string', default: '' },
      update: { type: 'boolean', default: false },
      'no-verify': { type: 'boolean', default: false },
      ...KERNEL_OPTIONS
    }
  });
  if (positionals.length !== 2 || !values.reproduced) {
    throw new Error(
      `expected a casebook folder, a case name and --reproduced NB\n${ADD_USAGE}`
    );
  }
  const dir = path.resolve(positionals[0]);
  const name = positionals[1];
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) {
    throw new Error(
      `--timeout must be a positive number of seconds, not "${values.timeout}"`
    );
  }
  if (!existsSync(path.join(dir, 'benchmark_desc.xlsx'))) {
    throw new Error(
      `${dir} is not a casebook (no benchmark_desc.xlsx): create one with "junobench new ${positionals[0]}"`
    );
  }
  const book = await loadLocalCasebook(dir);
  const nameProblem = caseNameProblem(name, book.cases, values.update);
  if (nameProblem !== null) {
    throw new Error(describeNameProblem(name, nameProblem));
  }
  const reproducedFile = path.resolve(values.reproduced);
  const reproduced = Private.readNotebookFile(reproducedFile);
  const recording = recordFromCounts(reproduced);
  if (!recording.ok) {
    throw new Error(
      `${values.reproduced}: ${describeRecordProblem(recording.problem)}`
    );
  }
  let fixed: INotebookJSON | null = null;
  if (values.fixed) {
    fixed = Private.readNotebookFile(path.resolve(values.fixed));
    if (!fixed.cells.some(cell => typeof cell.execution_count === 'number')) {
      // A fix that was never run: verify it top to bottom.
      fixed = fixedNotebook(fixed);
    }
  }
  const labels = parseLabelArgs(values.label);
  const spec = caseSpec({
    name,
    original: reproduced,
    reproduced: recording.reproduced,
    fixed,
    target: recording.target,
    description: {
      labels: labels.labels,
      library: labels.library,
      diagnosis: values.diagnosis,
      notebookUrl: labels.notebookUrl,
      datasets: [
        {
          title: values['dataset-title'],
          license: values['dataset-license'],
          url: values['dataset-url']
        }
      ]
    },
    data: values.data,
    update: values.update
  });
  for (const note of recording.notes) {
    console.log(`note: ${terminalSafe(describeNote(note))}`);
  }
  const written = await writeCase(dir, spec, path.dirname(reproducedFile));
  console.log(
    `Wrote ${name} into ${dir}: ${written.files.join(', ')}${written.backups.length ? ` (kept ${written.backups.join(', ')})` : ''}.`
  );
  for (const warning of written.warnings) {
    console.log(`warning: ${terminalSafe(warning)}`);
  }
  if (values['no-verify']) {
    console.log(
      `${name} is a draft until it is verified (junobench add --update without --no-verify).`
    );
    return 1;
  }
  const report = await Private.verifyOne(dir, name, values);
  const reason = draftReason(report);
  await setDraft(dir, name, reason);
  if (reason === null) {
    console.log(
      `Verified: ${name}_reproduced.ipynb crashes as recorded (${terminalSafe(report.reproduced.observed ?? report.recorded)}) and ${name}_fixed.ipynb passes.`
    );
    return 0;
  }
  console.log(
    `${name} is saved as a draft (benchmark/${name}/DRAFT.md): ${terminalSafe(reason)}`
  );
  return 1;
}

namespace Private {
  /**
   * Read and check a notebook file; the error names the file.
   */
  export function readNotebookFile(file: string): INotebookJSON {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (reason) {
      throw new Error(`cannot read ${file}: ${(reason as Error).message}`);
    }
    return parseNotebook(text, file);
  }

  /**
   * Verify one case of the casebook on a private server (or the one given).
   */
  export async function verifyOne(
    dir: string,
    name: string,
    values: {
      kernel?: string;
      timeout?: string;
      server?: string;
      token?: string;
      'server-root'?: string;
    }
  ): Promise<ICaseReport> {
    const book = await loadLocalCasebook(dir);
    const { server, serverRoot } = await serverForOptions(values, dir);
    try {
      const [report] = await verifyCasebook({
        casebook: book,
        casebookDir: dir,
        cases: [name],
        kernel: values.kernel,
        settings: server.settings,
        serverRoot,
        timeoutMs: Number(values.timeout) * 1000,
        probe: false
      });
      return report;
    } finally {
      await server.stop();
    }
  }
}
