/**
 * `junobench explain`: replay a case's reproduced notebook headlessly in the
 * recorded order and top to bottom, with the state probe after every step,
 * and print why it crashed and the timeline of the hidden state.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import type { Kernel, ServerConnection } from '@jupyterlab/services';

import { parseNotebook } from '../casebook/notebook';
import type { ICasebook } from '../casebook/types';
import { compareEnvironment } from '../kernel/drift';
import type { IDriftReport } from '../kernel/drift';
import { fallbackNote } from '../kernel/environment';
import type {
  EnvironmentPreference,
  IEnvironmentChoice,
  KernelEnvironment
} from '../kernel/environment';
import {
  evidenceInstallCode,
  trackExpression,
  trackResetCode
} from '../kernel/evidenceSnippets';
import { BENCHMARK_PINS } from '../kernel/pins';
import { probeEnvironment } from '../kernel/probe';
import type { PlanRunner } from '../kernel/runner';
import { describeSummary } from '../state/values';
import { recordedPlan, topToBottomPlan } from '../replay/plan';
import type { IReplayPlan } from '../replay/types';
import {
  buildTimeline,
  explainCrash,
  renderExplanationLine
} from '../state/timeline';
import { uniqueSuffix } from '../kernel/freshSession';
import { renderRunStop } from '../kernel/stop';
import { cellName, cellNamesInJSON } from '../i18n';
import type { IExplanation, ITimeline, ITimelineStep } from '../state/timeline';
import {
  commandKernel,
  ENVIRONMENT_OPTION,
  ENVIRONMENT_USAGE,
  readEnvironmentOption
} from './kernels';
import { KERNEL_OPTIONS, serverForOptions } from './server';
import { runInFreshKernel, sessionsFor } from './session';
import { loadLocalCasebook } from './verify';

/** Usage of `junobench explain`. */
export const EXPLAIN_USAGE = `  junobench explain <casebook> <case> [--json] [--kernel NAME] [--timeout SECONDS]
                   ${ENVIRONMENT_USAGE}
                   [--server URL --token T [--server-root DIR]]`;

/** A run's timeline as the command line gives it: how it ended and its cells, in English too. */
export interface IExplainTimeline extends Omit<ITimeline, 'steps'> {
  /** How the run ended, in English (`renderRunStop`). */
  message: string;
  /** The steps, each with its cell as the learner sees it, e.g. `cell 7 [6]` (`cellName`). */
  steps: Array<ITimelineStep & { cell: string }>;
}

/** What `explain` reports for a case. */
export interface IExplainReport {
  /** Case name. */
  case: string;
  /** Why the recorded run crashed, with its sentences in English. */
  explanation: IExplanation & { sentences: string[] };
  /** The timelines of the recorded and the top-to-bottom run. */
  runs: { recorded: IExplainTimeline; topToBottom: IExplainTimeline };
  /** The kernelspec both runs used. */
  kernel: string;
  /** Where the recorded run's kernel ran, as its probe says (null when the probe failed). */
  environment: KernelEnvironment | null;
  /** The container image (null outside the container or when the probe failed). */
  image: string | null;
  /** How the kernel was chosen (null when it was named). */
  environmentChoice: IEnvironmentChoice | null;
  /** The recorded run's kernel compared with the benchmark pins (null when the probe failed). */
  drift: IDriftReport | null;
  /** One line for people, starting with `environment:`. */
  environmentSummary: string;
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
  /** Kernel name (default: the kernel of the environment `environment` chooses). */
  kernel?: string;
  /** The environment to run in when no kernel is named (default `auto`). */
  environment?: EnvironmentPreference;
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
  const chosen = await commandKernel(
    options.settings,
    options.kernel,
    options.environment
  );
  const withKernel = { ...options, kernel: chosen.kernel };
  let drift: IDriftReport | null = null;
  let probeError = 'the kernel did not start';
  // The recorded run's kernel says where it runs before its first cell.
  const recorded = await replayTracked(recordedPlan(nb), folder, withKernel, {
    beforeRun: async kernel => {
      try {
        drift = compareEnvironment(
          await probeEnvironment(kernel, BENCHMARK_PINS, {
            timeoutMs: Math.max(options.timeoutMs ?? 0, 60000)
          }),
          BENCHMARK_PINS
        );
      } catch (reason) {
        probeError = (reason as Error).message;
      }
    }
  });
  const topToBottom = await replayTracked(
    topToBottomPlan(nb),
    folder,
    withKernel
  );
  const report = drift as IDriftReport | null;
  const note = chosen.choice ? fallbackNote(chosen.choice) : null;
  const line = report
    ? report.summary
    : `environment: could not be probed: ${probeError}`;
  const explanation = explainCrash(recorded, nb);
  return {
    case: c.name,
    explanation: {
      ...explanation,
      sentences: explanation.lines.map(l => renderExplanationLine(l))
    },
    runs: {
      recorded: Private.inEnglish(recorded),
      topToBottom: Private.inEnglish(topToBottom)
    },
    kernel: chosen.kernel,
    environment: report?.environment ?? null,
    image: report?.image ?? null,
    environmentChoice: chosen.choice,
    drift: report,
    environmentSummary: note ? `${note}\n${line}` : line
  };
}

/**
 * Replay a plan in a fresh kernel in the case folder, tracking the state after every step.
 */
export async function replayTracked(
  plan: IReplayPlan,
  folder: string,
  options: IExplainOptions,
  hooks: {
    beforeRun?: (kernel: Kernel.IKernelConnection) => Promise<void>;
  } = {}
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
        timeoutMs: options.timeoutMs,
        beforeRun: hooks.beforeRun
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
      ...KERNEL_OPTIONS,
      // No default: explain takes the best environment the server has (see --environment).
      kernel: { type: 'string' },
      ...ENVIRONMENT_OPTION
    }
  });
  if (positionals.length !== 2) {
    console.error(
      `junobench explain: expected <casebook> <case>\nUsage:\n${EXPLAIN_USAGE}`
    );
    return 2;
  }
  const environment = readEnvironmentOption(values.environment);
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
      environment,
      timeoutMs: Number(values.timeout) * 1000
    });
    console.log(
      values.json
        ? JSON.stringify(report, cellNamesInJSON, 2)
        : formatExplanation(report)
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
  const lines = [...report.environmentSummary.split('\n')];
  lines.push(`${report.case}: why it crashed`);
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

namespace Private {
  /** A timeline with its end and its cells said in English, for the command line and JSON readers. */
  export function inEnglish(timeline: ITimeline): IExplainTimeline {
    return {
      ...timeline,
      message: renderRunStop(timeline.stop),
      steps: timeline.steps.map(step => ({
        ...step,
        cell: cellName(step.cellIndex, step.executionCount)
      }))
    };
  }
}
