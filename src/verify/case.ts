/**
 * Verifying one case, wherever its files and kernels are: the reproduced
 * notebook must crash at its target with the recorded exception, the fixed
 * notebook must run cleanly from the aligned target on. The caller reads the
 * notebooks and runs the plans (the Node CLI on disk, JupyterLab through the
 * server). Pure logic.
 */
import type { IRunResult, PlanRunner } from '../kernel/runner';
import type { ICase } from '../casebook/types';
import { english } from '../i18n';
import type { Translate } from '../i18n';
import { recordedPlan } from '../replay/plan';
import type { INotebookJSON, IReplayPlan } from '../replay/types';
import { alignCell } from './align';
import {
  caseVerdict,
  judgeFixed,
  judgeReproduced,
  notebookJudgement,
  renderVerdictReason
} from './verdict';
import type { CaseVerdict, INotebookJudgement } from './verdict';

/** How a case verification reads notebooks and runs plans. */
export interface ICaseVerifyIO {
  /** A casebook-relative notebook, or a sentence saying why it cannot be read. */
  read(rel: string): Promise<INotebookJSON | string>;
  /** Run a plan in a fresh kernel in the notebook's folder; a string says why it could not run. */
  run(
    plan: IReplayPlan,
    rel: string,
    options: PlanRunner.IRunOptions
  ): Promise<IRunResult | string>;
}

/** The verification of one case. */
export interface ICaseVerification {
  /** Overall verdict. */
  verdict: CaseVerdict;
  /** Judgement of the reproduced notebook. */
  reproduced: INotebookJudgement;
  /** Judgement of the fixed notebook. */
  fixed: INotebookJudgement;
}

/**
 * Verify one case: its reproduced notebook, then its fixed notebook.
 */
export async function verifyCaseWith(
  c: ICase,
  io: ICaseVerifyIO
): Promise<ICaseVerification> {
  const notRun = notebookJudgement('not-run', { code: 'not-run' });
  const done = (
    reproduced: INotebookJudgement,
    fixed: INotebookJudgement
  ): ICaseVerification => ({
    verdict: caseVerdict(reproduced.verdict, fixed.verdict),
    reproduced,
    fixed
  });
  const folder = c.files.folder;
  if (!folder || !c.files.reproduced) {
    return done(
      notebookJudgement(
        'missing-notebook',
        folder
          ? { code: 'notebook-missing', file: `${c.name}_reproduced.ipynb` }
          : { code: 'no-case-folder' }
      ),
      notRun
    );
  }
  const reproducedPath = `${folder}/${c.name}_reproduced.ipynb`;
  const repro = await io.read(reproducedPath);
  if (typeof repro === 'string') {
    return done(
      notebookJudgement('invalid-notebook', {
        code: 'invalid-notebook',
        message: repro
      }),
      notRun
    );
  }
  const plan = recordedPlan(repro);
  const reproRun = await io.run(plan, reproducedPath, {});
  let reproduced: INotebookJudgement =
    typeof reproRun === 'string'
      ? notebookJudgement('kernel-died', {
          code: 'run-stopped',
          stop: { code: 'failed', reason: reproRun }
        })
      : judgeReproduced(plan, reproRun, c.ename);
  if (reproduced.verdict === 'fail' && Private.needsMissingData(c, repro)) {
    // Without its input files the notebook cannot reach the recorded state.
    reproduced = notebookJudgement(
      'missing-data',
      { code: 'data-files-missing', because: reproduced.why },
      reproduced.observed
    );
  }

  if (!c.files.fixed) {
    return done(
      reproduced,
      notebookJudgement('missing-notebook', {
        code: 'notebook-missing',
        file: `${c.name}_fixed.ipynb`
      })
    );
  }
  const fixedPath = `${folder}/${c.name}_fixed.ipynb`;
  const fixedNb = await io.read(fixedPath);
  if (typeof fixedNb === 'string') {
    return done(
      reproduced,
      notebookJudgement('invalid-notebook', {
        code: 'invalid-notebook',
        message: fixedNb
      })
    );
  }
  const fixedPlan = recordedPlan(fixedNb);
  const aligned = plan.target
    ? alignCell(repro, plan.target.cellIndex, fixedNb)
    : null;
  let targetStep = fixedPlan.steps.findIndex(s => s.cellIndex === aligned);
  if (targetStep < 0) {
    targetStep = 0;
  }
  const fixedRun = await io.run(fixedPlan, fixedPath, {
    continueOnErrorBefore: targetStep
  });
  let fixed: INotebookJudgement =
    typeof fixedRun === 'string'
      ? notebookJudgement('kernel-died', {
          code: 'run-stopped',
          stop: { code: 'failed', reason: fixedRun }
        })
      : judgeFixed(fixedRun, targetStep);
  if (fixed.verdict === 'fail' && Private.needsMissingData(c, fixedNb)) {
    fixed = notebookJudgement(
      'missing-data',
      { code: 'data-files-missing', because: fixed.why },
      fixed.observed
    );
  }
  return done(reproduced, fixed);
}

/**
 * Why a verified case stays a draft, in English (the text of its DRAFT.md),
 * or null when it counts.
 */
export function draftReason(
  verification: ICaseVerification,
  __: Translate = english
): string | null {
  const { reproduced, fixed } = verification;
  if (verification.verdict === 'pass') {
    return null;
  }
  const parts: string[] = [];
  if (reproduced.verdict !== 'pass') {
    parts.push(
      __(
        'the reproduced notebook did not crash as recorded (%1: %2)',
        reproduced.verdict,
        renderVerdictReason(reproduced.why, __)
      )
    );
  }
  if (fixed.verdict !== 'pass') {
    parts.push(
      fixed.verdict === 'missing-notebook'
        ? __(
            'it has no reference fix yet (add one with --fixed, or "Save as Reference Fix")'
          )
        : __(
            'the reference fix did not pass (%1: %2)',
            fixed.verdict,
            renderVerdictReason(fixed.why, __)
          )
    );
  }
  return (
    parts.join(__('; ')) || __('the verification said %1', verification.verdict)
  );
}

namespace Private {
  /**
   * Whether a case lacks input data that its notebook reads from `data/`.
   */
  export function needsMissingData(c: ICase, nb: INotebookJSON): boolean {
    if (c.files.data.length > 0) {
      return false;
    }
    return nb.cells.some(cell => {
      const text = Array.isArray(cell.source)
        ? cell.source.join('')
        : cell.source;
      return cell.cell_type === 'code' && /['"]\.?\/?data\//.test(text);
    });
  }
}
