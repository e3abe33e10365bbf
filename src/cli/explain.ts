/**
 * `junobench explain`: replay a case's reproduced notebook headlessly in the
 * recorded order and top to bottom, with the state probe after every step,
 * and print why it crashed and the timeline of the hidden state.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import type { ServerConnection } from '@jupyterlab/services';

import { parseNotebook } from '../casebook/notebook';
import type { ICasebook } from '../casebook/types';
import {
  evidenceInstallCode,
  trackExpression,
  trackResetCode
} from '../kernel/evidenceSnippets';
import type { PlanRunner } from '../kernel/runner';
import { describeSummary } from '../state/values';
import { recordedPlan, topToBottomPlan } from '../replay/plan';
import type { IReplayPlan } from '../replay/types';
import { buildTimeline, explainCrash } from '../state/timeline';
import type { IExplanation, ITimeline } from '../state/timeline';
import { KERNEL_OPTIONS, serverForOptions } from './server';
import { runInFreshKernel, sessionsFor, uniqueSuffix } from './session';
import { loadLocalCasebook } from './verify';

/** Usage of `junobench explain`. */
export const EXPLAIN_USAGE = `  junobench explain <casebook> <case> [--json] [--kernel NAME] [--timeout SECONDS]
                   [--server URL --token T [--server-root DIR]]`;

/** What `explain` reports for a case. */
export interface IExplainReport {
  /** Case name. */
  case: string;
  /** Why the recorded run crashed. */
  explanation: IExplanation;
  /** The timelines of the recorded and the top-to-bottom run. */
  runs: { recorded: ITimeline; topToBottom: ITimeline };
}

/** Options of one headless explanation. */
export interface IExplainOptions {
  /** The loaded casebook and its folder. */
  casebook: ICasebook;
  casebookDir: string;
  /** Case name. */
  caseName: string;
  /** Server settings and the folder it serves. */
  settings: ServerConnection.ISettings;
  serverRoot: string;
  /** Kernel name (default python3). */
  kernel?: string;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
  /** Track the state after every step (default true; false for the benchmark's baseline). */
  track?: boolean;
}

/**
 * Replay a case both ways with state tracking and explain its crash.
 */
export async function explainCase(
  options: IExplainOptions
): Promise<IExplainReport> {
  const c = options.casebook.cases.find(x => x.name === options.caseName);
  if (!c || !c.files.folder || !c.files.reproduced) {
    throw new Error(
      `no case "${options.caseName}" with a reproduced notebook in ${options.casebook.name}`
    );
  }
  const file = path.join(
    options.casebookDir,
    c.files.folder,
    `${c.name}_reproduced.ipynb`
  );
  const nb = parseNotebook(readFileSync(file, 'utf8'), file);
  const folder = path
    .relative(
      options.serverRoot,
      path.join(options.casebookDir, c.files.folder)
    )
    .split(path.sep)
    .join('/');
  if (folder.startsWith('..')) {
    throw new Error(
      `the case folder is not under the server root ${options.serverRoot} (pass --server-root)`
    );
  }
  const recorded = await replayTracked(recordedPlan(nb), folder, options);
  const topToBottom = await replayTracked(topToBottomPlan(nb), folder, options);
  return {
    case: c.name,
    explanation: explainCrash(recorded, nb),
    runs: { recorded, topToBottom }
  };
}

/**
 * Replay a plan in a fresh kernel in the case folder, tracking the state after every step.
 */
export async function replayTracked(
  plan: IReplayPlan,
  folder: string,
  options: IExplainOptions
): Promise<ITimeline> {
  const { sessions, dispose } = sessionsFor(options.settings);
  const name = `${options.caseName}.junobench-explain-${uniqueSuffix()}.ipynb`;
  const track = options.track !== false;
  const runOptions: PlanRunner.IRunOptions = track
    ? {
        setupCode: `${evidenceInstallCode()}\n${trackResetCode()}`,
        instrument: () => ({
          before: '',
          after: '',
          collect: trackExpression(false)
        })
      }
    : {};
  try {
    const run = await runInFreshKernel(
      sessions,
      {
        path: folder ? `${folder}/${name}` : name,
        name,
        kernel: options.kernel,
        timeoutMs: options.timeoutMs
      },
      plan,
      runOptions
    );
    if (typeof run === 'string') {
      throw new Error(run);
    }
    return buildTimeline(
      plan.kind === 'recorded' ? 'recorded' : 'top-to-bottom',
      run
    );
  } finally {
    dispose();
  }
}

/**
 * `junobench explain`: resolves with the exit code (0, or 2 on bad input).
 */
export async function explainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      ...KERNEL_OPTIONS
    }
  });
  if (positionals.length !== 2) {
    console.error(
      `junobench explain: expected <casebook> <case>\nUsage:\n${EXPLAIN_USAGE}`
    );
    return 2;
  }
  const dir = path.resolve(positionals[0]);
  const book = await loadLocalCasebook(dir);
  const { server, serverRoot } = await serverForOptions(values, dir);
  try {
    const report = await explainCase({
      casebook: book,
      casebookDir: dir,
      caseName: positionals[1],
      settings: server.settings,
      serverRoot,
      kernel: values.kernel,
      timeoutMs: Number(values.timeout) * 1000
    });
    console.log(
      values.json ? JSON.stringify(report, null, 2) : formatExplanation(report)
    );
    return 0;
  } finally {
    await server.stop();
  }
}

/**
 * The report for people: the explanation, then each run's timeline, a line a step.
 */
export function formatExplanation(report: IExplainReport): string {
  const lines = [`${report.case}: why it crashed`];
  lines.push(...report.explanation.sentences.map(s => `  - ${s}`));
  for (const timeline of [report.runs.recorded, report.runs.topToBottom]) {
    lines.push('', `${timeline.order} run: ${timeline.message}`);
    for (const step of timeline.steps) {
      const changes = Object.entries(step.changes ?? {}).map(([n, c]) =>
        c.change === 'deleted'
          ? `-${n}`
          : `${c.change === 'created' ? '+' : c.change === 'rebound' ? '=' : '~'}${n} ${c.summary ? describeSummary(c.summary) : ''}`.trim()
      );
      const head = `  ${String(step.index + 1).padStart(2)}. ${step.cell}${step.run === 2 ? ' (2nd run)' : ''}`;
      lines.push(
        step.error
          ? `${head}  ✗ ${step.error.ename}: ${step.error.evalue}`
          : `${head}  ${changes.join('; ') || '(no change)'}`
      );
    }
  }
  return lines.join('\n');
}
