/**
 * The fetcher's JSON lines (jupyterlab_junobench/fetch.py) as types, the
 * fetched casebook's summary (read with the loader), and the English of
 * `junobench fetch`: its progress, warnings and errors are the fetcher's codes
 * worded by the renderers the panel uses (`renderFetchProgress`,
 * `renderFetchJobProblem`), its summaries are worded here (the starter is ./fetch.ts).
 */
import { formatBytes } from '../i18n';
import type { ICase } from '../casebook/types';
import {
  readFetchJobProblem,
  renderFetchJobProblem
} from '../model/fetchProblems';
import { readFetchProgress, renderFetchProgress } from '../model/fetchProgress';
import { loadLocalCasebook } from './verify';

/** One line of the fetcher's output (`python -m jupyterlab_junobench fetch --json-lines`). */
export type IFetcherLine = Record<string, unknown> & { event: string };

/** What `--cases`, `--library`, `--root-cause`, `--crash-type`, `--stage` and `--notebook-specific` ask for (labels case-insensitive). */
export type ICaseSelectors = Record<
  'cases' | 'library' | 'rootCause' | 'crashType' | 'pipelineStage',
  string[]
> & { notebookSpecific: boolean };

/** The fetcher's summary line: `CloneSummary`, or `FetchSummary` (mode 'sparse') in Python; `lfs_pointers` repository-relative. */
export type IFetcherSummary = Record<
  'mode' | 'dest' | 'source' | 'casebook' | 'commit' | 'prefix',
  string
> &
  Record<'lfs_pointers' | 'cases' | 'added' | 'available', string[]> &
  Record<'disk_bytes' | 'seconds' | 'objects' | 'object_bytes', number> &
  Record<'lfs_objects' | 'lfs_bytes', number> &
  Record<'lfs' | 'resumed', boolean>;

/** What a fetch brought: the fetched casebook as the loader reads it (`lfsPointers` casebook-relative, `problems` one line each). */
export type IFetchSummary = Record<'source' | 'dest' | 'casebook', string> &
  Record<'lfsPointers' | 'withData' | 'withoutData' | 'problems', string[]> &
  Record<'cases' | 'withReproduced' | 'withFixed' | 'diskBytes', number> & {
    lfs: boolean;
  };

/** What `fetchSparse` resolves with: the copy's summary, what was chosen and the fetcher's report. */
export type ISparseResult = IFetchSummary &
  Record<'selected' | 'notInSource', string[]> & { sparse: IFetcherSummary };

/** The sparse fetch's summary for people. */
export function describeSparse(r: ISparseResult): string[] {
  const s = r.sparse;
  const missing = r.withoutData.filter(n => s.cases.includes(n));
  return [
    `${s.resumed ? 'Updated' : 'Fetched'} ${s.source} into ${s.dest} (commit ${s.commit.slice(0, 12)})`,
    `casebook: ${r.casebook}`,
    `case folders here: ${s.cases.length} of the ${s.available.length} in the source${s.added.length ? `; added: ${s.added.join(', ')}` : ''}`,
    `${r.notInSource.length ? `chosen but without a folder in the source: ${r.notInSource.join(', ')}` : ''}`,
    `${missing.length ? `without data files: ${missing.join(', ')}` : ''}`,
    `${s.lfs_pointers.length ? `${s.lfs_pointers.length} file(s) are Git LFS pointers, not their content (${s.lfs ? 'git-lfs could not fetch them' : 'git-lfs is not installed'}); install git-lfs and run the same command again.` : ''}`,
    `transferred into the copy: ${s.objects} git objects (${formatBytes(s.object_bytes)}), ${s.lfs_objects} large files (${formatBytes(s.lfs_bytes)})`,
    `disk used: ${formatBytes(s.disk_bytes)} in ${s.seconds.toFixed(1)} s`,
    `Add cases with: junobench fetch ${s.dest} --cases <name,...>`,
    `Verify it with: junobench verify ${r.casebook}`
  ].filter(Boolean);
}

/** The full clone's summary for people. */
export function describeFetch(s: IFetchSummary): string[] {
  return [
    `Fetched ${s.source} into ${s.dest}`,
    `casebook: ${s.casebook}`,
    `${s.cases} case(s): ${s.withReproduced} with a reproduced notebook, ${s.withFixed} with a fixed notebook, ${s.withData.length} with input data files`,
    `${s.withData.length ? `with data: ${s.withData.join(', ')}` : ''}`,
    `${s.withoutData.length ? `without data: ${s.withoutData.join(', ')}` : ''}`,
    `${s.lfsPointers.length ? `${s.lfsPointers.length} file(s) are Git LFS pointers, not their content (git-lfs ${s.lfs ? 'did not fetch them' : 'is not installed'}); run \`git lfs pull\` in ${s.dest}.` : ''}`,
    ...s.problems,
    `disk used: ${formatBytes(s.diskBytes)}`,
    `Verify it with: junobench verify ${s.casebook}`
  ].filter(Boolean);
}

/**
 * A progress or warning line in English (`renderFetchProgress`, and the
 * percentage by the quarter): one line a step and quarter; '' for other lines
 * and the end. A code this version does not know shows the fetcher's English.
 */
export function describeProgressLine(line: IFetcherLine): string {
  if (!['progress', 'warning'].includes(line.event)) {
    return '';
  }
  // The line's other fields (event, phase, percent) ride along unread.
  const progress = readFetchProgress(line);
  if (progress === null || progress.code === 'done') {
    return progress === null ? String(line.message ?? '') : '';
  }
  const pct = line.percent;
  const quarter =
    typeof pct === 'number' ? ` ${Math.floor(pct / 25) * 25}%` : '';
  return renderFetchProgress(progress) + quarter;
}

/**
 * The fetcher's error line in English (`renderFetchJobProblem`); a code this
 * version does not know shows the fetcher's English.
 */
export function describeErrorLine(line: IFetcherLine): string {
  const problem = readFetchJobProblem(line);
  return problem
    ? renderFetchJobProblem(problem)
    : String(line.message ?? `the fetcher failed (${String(line.code)})`);
}

/** Read a fetched casebook with the loader and summarise its cases and data. */
export async function summarise(f: IFetcherSummary): Promise<IFetchSummary> {
  const { cases, problems } = await loadLocalCasebook(f.casebook);
  // The sparse fetcher names pointers from the repository root.
  const lfsPointers = f.lfs_pointers.map(p => p.slice((f.prefix ?? '').length));
  const data = (c: ICase) => c.files.data.some(d => !lfsPointers.includes(d));
  const names = (list: ICase[]) => list.map(c => c.name);
  return {
    ...{ source: f.source, dest: f.dest, casebook: f.casebook, lfs: f.lfs },
    ...{ lfsPointers, cases: cases.length, diskBytes: f.disk_bytes },
    withReproduced: cases.filter(c => c.files.reproduced).length,
    withFixed: cases.filter(c => c.files.fixed).length,
    withData: names(cases.filter(data)),
    withoutData: names(cases.filter(c => !data(c))),
    problems: problems.map(
      p =>
        `${p.severity}: ${p.file}${p.case ? ` (${p.case})` : ''}: ${p.message}`
    )
  };
}
