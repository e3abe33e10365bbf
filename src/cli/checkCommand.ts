/**
 * `junobench check`, both forms: the single notebook (check.ts) and a folder of
 * submissions (batch.ts). Parses the arguments once and hands them over; kept
 * apart from both so that neither imports the other's command.
 */
import * as path from 'path';
import { parseArgs } from 'util';

import { cellNamesInJSON } from '../i18n';
import type { ICasebook } from '../casebook/types';
import {
  BATCH_OPTIONS,
  BATCH_USAGE,
  batchCommand,
  batchOnlyOptions,
  isBatchCheck
} from './batch';
import {
  CHECK_USAGE,
  CheckInputError,
  checkNotebook,
  defaultCacheDir,
  FileReferenceCache,
  findCheckCase,
  formatCheckReport,
  readCheckNotebook
} from './check';
import { ENVIRONMENT_OPTION, readEnvironmentOption } from './kernels';
import { fallbackNote } from '../kernel/environment';
import {
  confirmServing,
  KERNEL_OPTIONS,
  serverFor,
  ServerLostError,
  whileServing
} from './server';
import type { IServerHandle } from './server';
import { loadLocalCasebook } from './verify';

/**
 * `junobench check`: resolves with the exit code (0 pass, 1 fail, 2 usage or input error).
 */
export async function checkCommand(args: string[]): Promise<number> {
  let values: {
    json?: boolean | string;
    kernel?: string;
    environment?: string;
    timeout?: string;
    server?: string;
    token?: string;
    'server-root'?: string;
    'cache-dir'?: string;
    'no-cache'?: boolean;
    submissions?: string;
    jobs?: string;
    cases?: string;
    html?: string;
  };
  let positionals: string[];
  // The batch form writes its JSON report to a file (as `verify --json FILE` does); the
  // single form prints it, so there `--json` stays a flag.
  const batch = isBatchCheck(args);
  const usage = `${CHECK_USAGE}\n\n${BATCH_USAGE}`;
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: batch ? { type: 'string' } : { type: 'boolean', default: false },
        ...KERNEL_OPTIONS,
        // No default: the check takes the best environment the server has (see --environment).
        kernel: { type: 'string' },
        ...ENVIRONMENT_OPTION,
        'cache-dir': { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        ...BATCH_OPTIONS
      }
    }));
  } catch (reason) {
    console.error(`junobench check: ${(reason as Error).message}\n${usage}`);
    return 2;
  }
  if (values.submissions !== undefined) {
    return batchCommand(values, positionals);
  }
  const batchOnly = batchOnlyOptions(values);
  if (batchOnly.length) {
    console.error(
      `junobench check: ${batchOnly.join(', ')} ${batchOnly.length > 1 ? 'go' : 'goes'} only with --submissions DIR\n${usage}`
    );
    return 2;
  }
  if (positionals.length !== 3) {
    console.error(
      `junobench check: expected <casebook> <case> <notebook.ipynb>\n${usage}`
    );
    return 2;
  }
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) {
    console.error(
      `junobench check: --timeout must be a positive number of seconds, not "${values.timeout}"`
    );
    return 2;
  }
  let environment;
  try {
    environment = readEnvironmentOption(values.environment);
  } catch (reason) {
    console.error(`junobench check: ${(reason as Error).message}`);
    return 2;
  }
  const [bookArg, caseName, notebookArg] = positionals;
  const dir = path.resolve(bookArg);
  let server: IServerHandle | null = null;
  try {
    const notebook = readCheckNotebook(path.resolve(notebookArg));
    let book: ICasebook;
    try {
      book = await loadLocalCasebook(dir);
    } catch (reason) {
      throw new CheckInputError(
        `cannot load the casebook ${dir}: ${(reason as Error).message}`
      );
    }
    findCheckCase(book, caseName);
    const chosen = await serverFor(
      {
        server: values.server,
        token: values.token,
        serverRoot: values['server-root']
      },
      dir
    );
    server = chosen.server;
    const serverRoot = chosen.serverRoot;
    const report = await whileServing(
      chosen.server,
      checkNotebook({
        casebook: book,
        casebookDir: dir,
        caseName,
        notebook,
        notebookLabel: notebookArg,
        settings: chosen.server.settings,
        serverRoot,
        kernel: values.kernel,
        environment,
        timeoutMs: timeout * 1000,
        cache: values['no-cache']
          ? null
          : new FileReferenceCache(values['cache-dir'] ?? defaultCacheDir())
      })
    );
    if (report.grade === 'not-checked') {
      await confirmServing(chosen.server);
    }
    const note = report.environmentChoice
      ? fallbackNote(report.environmentChoice)
      : null;
    if (note) {
      console.error(note);
    }
    if (values.json) {
      console.log(JSON.stringify(report, cellNamesInJSON, 2));
    } else {
      console.log(formatCheckReport(report));
    }
    return report.passed ? 0 : 1;
  } catch (reason) {
    if (reason instanceof CheckInputError) {
      console.error(`junobench check: ${reason.message}`);
      return 2;
    }
    if (reason instanceof ServerLostError) {
      console.error(
        `junobench check: ${reason.message}; the repair was not checked`
      );
      return 1;
    }
    throw reason;
  } finally {
    await server?.stop();
  }
}
