/**
 * `junobench score <casebook> --predictions FILE ...`: a debugging tool's
 * predictions scored against the casebook's labels and crash locations, tools
 * side by side, as a terminal table, JSON and a self-contained HTML page.
 * Wiring only: the scoring is `src/score/`.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import { terminalSafe } from '../casebook/display';
import { readNotebook } from '../casebook/notebook';
import type { ICasebook } from '../casebook/types';
import { renderScoreMessage } from '../score/messages';
import type { ScoreError } from '../score/messages';
import { parsePredictions } from '../score/predictions';
import { parseRepairs, scoreRepairs } from '../score/repairs';
import {
  reportWarnings,
  scoreHTML,
  scoreJSON,
  scoreText
} from '../score/report';
import type { IScoreReport, IToolReport } from '../score/report';
import {
  crashLocation,
  DEFAULT_BOOTSTRAP,
  groundTruth,
  scoreTool
} from '../score/score';
import type { ICrashLocation, IGroundTruth } from '../score/score';
import { FsCasebookSource } from './fsSource';
import { writeOutputFile } from './output';
import { loadLocalCasebook } from './verify';

/** The usage of `junobench score`, with what it does (shown by `junobench score --help`). */
export const SCORE_USAGE = `  junobench score <casebook> --predictions FILE [--predictions FILE ...]
                  [--repairs FILE ...] [--json FILE] [--html FILE] [--seed N] [--resamples N]
                  (a debugging tool's predictions against the casebook's labels, one column per
                  FILE, CSV or JSON lines with case, library, crash_type, root_cause, stage, cell,
                  line; per dimension accuracy, macro-F1, per-label precision and recall, the
                  confusion matrix and 95% bootstrap intervals, seed ${DEFAULT_BOOTSTRAP.seed} and ${DEFAULT_BOOTSTRAP.resamples} resamples by
                  default; the crashing cell, by id, 0-based index or [execution count], and
                  line; a case without a prediction counts as wrong, and what is left out is
                  named, with exit code 1; --repairs, a check --submissions --json report per
                  FILE in the same order, adds repair rates; --html, a self-contained page with
                  the charts; see docs/scoring.md)`;

/**
 * Run `junobench score`; resolves with the exit code.
 */
export async function scoreCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      predictions: { type: 'string', multiple: true },
      repairs: { type: 'string', multiple: true },
      json: { type: 'string' },
      html: { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
      help: { type: 'boolean', short: 'h' }
    }
  });
  if (values.help) {
    console.log(`Usage:\n${SCORE_USAGE}`);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new Error(`expected one casebook folder\nUsage:\n${SCORE_USAGE}`);
  }
  const files = values.predictions ?? [];
  const repairs = values.repairs ?? [];
  if (files.length === 0) {
    throw new Error(
      `give at least one --predictions FILE\nUsage:\n${SCORE_USAGE}`
    );
  }
  if (repairs.length > files.length) {
    throw new Error(
      `${repairs.length} --repairs for ${files.length} --predictions: each --repairs FILE belongs to the --predictions FILE in the same position`
    );
  }
  const bootstrap = {
    ...DEFAULT_BOOTSTRAP,
    seed: Private.whole('--seed', values.seed, DEFAULT_BOOTSTRAP.seed, 0),
    resamples: Private.whole(
      '--resamples',
      values.resamples,
      DEFAULT_BOOTSTRAP.resamples,
      1
    )
  };
  const dir = path.resolve(positionals[0]);
  const book = await loadLocalCasebook(dir);
  for (const p of book.problems.filter(p => p.severity === 'error')) {
    console.error(terminalSafe(`error: ${p.file}: ${p.message}`));
  }
  const truth = groundTruth(book, await Private.locations(dir, book));
  if (truth.cases.length === 0) {
    throw new Error(`${dir} has no case in its descriptor to score against`);
  }
  const names = Private.toolNames(files);
  const tools: IToolReport[] = files.map((file, i) => {
    const parsed = parsePredictions(Private.read(file), file);
    if (!parsed.ok) {
      throw Private.inputError(parsed.error);
    }
    const tool: IToolReport = scoreTool(
      truth,
      { name: names[i], file, rows: parsed.rows, warnings: parsed.warnings },
      bootstrap
    );
    if (repairs[i] !== undefined) {
      tool.repairs = Private.repairsOf(truth, repairs[i], tool.warnings);
    }
    return tool;
  });
  const report: IScoreReport = {
    casebook: book.name,
    cases: truth.cases.length,
    bootstrap,
    tools
  };
  process.stdout.write(terminalSafe(scoreText(report)));
  const warnings = reportWarnings(report);
  for (const { tool, warning } of warnings) {
    console.error(
      terminalSafe(`junobench score: ${tool}: ${renderScoreMessage(warning)}`)
    );
  }
  if (values.json) {
    writeOutputFile(
      values.json,
      JSON.stringify(scoreJSON(report), null, 2),
      'the JSON scores'
    );
    console.log(`JSON written to ${values.json}`);
  }
  if (values.html) {
    writeOutputFile(
      values.html,
      scoreHTML(report, {
        scripts: Private.chartLibraries(),
        generatedAt: new Date().toISOString()
      }),
      'the HTML report'
    );
    console.log(`HTML report written to ${values.html}`);
  }
  // Cases without a prediction, or without a notebook to locate the crash
  // in, are the casebook's and the tool's coverage, not input left out.
  const leftOut = warnings.some(
    w => w.warning.code !== 'no-prediction' && w.warning.code !== 'no-notebook'
  );
  return leftOut ? 1 : 0;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The Vega builds the HTML page inlines, in load order (vega-embed needs the other two).
   */
  const CHART_LIBRARIES: [string, string][] = [
    ['vega', 'vega.min.js'],
    ['vega-lite', 'vega-lite.min.js'],
    ['vega-embed', 'vega-embed.min.js']
  ];

  /**
   * The text of the chart libraries' minified UMD builds, found beside each
   * package's main module (their `exports` hide `package.json`).
   */
  export function chartLibraries(): string[] {
    return CHART_LIBRARIES.map(([name, build]) => {
      const file = path.join(path.dirname(require.resolve(name)), build);
      try {
        return readFileSync(file, 'utf8');
      } catch (reason) {
        throw new Error(
          `cannot read ${file} for the HTML page's charts (${(reason as Error).message}); reinstall the ${name} package`
        );
      }
    });
  }

  /**
   * A file's text, or an error naming it.
   */
  export function read(file: string): string {
    try {
      return readFileSync(file, 'utf8');
    } catch (reason) {
      throw new Error(`cannot read ${file}: ${(reason as Error).message}`);
    }
  }

  /**
   * A scoring input error as a thrown Error with its English sentence.
   */
  export function inputError(error: ScoreError): Error {
    return new Error(renderScoreMessage(error));
  }

  /**
   * A whole-number option of at least `min`, or its default.
   */
  export function whole(
    option: string,
    text: string | undefined,
    fallback: number,
    min: number
  ): number {
    if (text === undefined) {
      return fallback;
    }
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < min || n > 0xffffffff) {
      throw new Error(
        `${option} must be a whole number of at least ${min}, not "${text}"`
      );
    }
    return n;
  }

  /**
   * Tool names: each file's base name without its extension, its path where
   * two share one, and its position too where two paths are the same.
   */
  export function toolNames(files: readonly string[]): string[] {
    const bases = files.map(f => path.basename(f, path.extname(f)));
    const once = (names: string[], i: number) =>
      names.indexOf(names[i]) === names.lastIndexOf(names[i]);
    return bases.map((base, i) =>
      once(bases, i)
        ? base
        : once([...files], i)
          ? files[i]
          : `${files[i]} (${i + 1})`
    );
  }

  /**
   * The crash location of every case with a reproduced notebook, read as the
   * check reads it; a notebook that cannot be read is named and left unscored.
   */
  export async function locations(
    dir: string,
    book: ICasebook
  ): Promise<Map<string, ICrashLocation | null>> {
    const source = new FsCasebookSource(dir);
    const found = new Map<string, ICrashLocation | null>();
    for (const c of book.cases) {
      if (!c.files.folder || !c.files.reproduced) {
        continue;
      }
      const rel = `${c.files.folder}/${c.name}_reproduced.ipynb`;
      try {
        found.set(c.name, crashLocation(await readNotebook(source, rel)));
      } catch (reason) {
        console.error(
          terminalSafe(
            `junobench score: ${c.name}: its crash location is not scored: ${(reason as Error).message}`
          )
        );
      }
    }
    return found;
  }

  /**
   * The repair rates of a batch report file.
   */
  export function repairsOf(
    truth: IGroundTruth,
    file: string,
    warnings: IToolReport['warnings']
  ): IToolReport['repairs'] {
    const parsed = parseRepairs(read(file), file);
    if (!parsed.ok) {
      throw inputError(parsed.error);
    }
    return scoreRepairs(truth, parsed.submissions, file, warnings);
  }
}
