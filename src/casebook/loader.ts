/**
 * Loading a casebook: the descriptor, the optional diagnoses and the case
 * folders, all read through an ICasebookSource.
 */

import { DESCRIPTOR_FILE, parseDescriptor } from './descriptor';
import { DIAGNOSES_FILE, parseDiagnoses } from './diagnoses';
import { libraryOf } from './library';
import { casebookProblem, renderCaseMarker } from './messages';
import { MAX_NOTEBOOK_BYTES } from './notebook';
import { isSafeName, joinSafe } from './paths';
import type {
  CaseMarker,
  ICase,
  ICasebook,
  ICasebookProblem,
  ICasebookSource,
  ICaseFiles,
  IDescriptorRow,
  ISourceEntry
} from './types';

/** Folder under the casebook root that holds the case folders. */
export const BENCHMARK_FOLDER = 'benchmark';

/** Case marker for a descriptor row without a case folder. */
export const MARKER_FOLDER_NOT_FOUND = renderCaseMarker({
  code: 'folder-not-found'
});

/** Case marker for a case folder without a descriptor row (such a case has empty labels and row 0). */
export const MARKER_NOT_IN_DESCRIPTOR = renderCaseMarker({
  code: 'not-in-descriptor'
});

/** Case marker for a folder without `<case>_reproduced.ipynb`. */
export const MARKER_NO_REPRODUCED = renderCaseMarker({
  code: 'no-reproduced'
});

/** Case marker for a folder without `<case>_fixed.ipynb`. */
export const MARKER_NO_FIXED = renderCaseMarker({ code: 'no-fixed' });

/** Case marker for a folder without `README.md`. */
export const MARKER_NO_README = renderCaseMarker({ code: 'no-readme' });

/** Case marker for a folder with no input data files. */
export const MARKER_NO_DATA = renderCaseMarker({ code: 'no-data' });

/** The file whose presence makes a case a draft: it did not verify; the file says why. */
export const DRAFT_FILE = 'DRAFT.md';

/** Case marker for a draft case (a `DRAFT.md` in its folder: it did not verify, so it does not count yet). */
export const MARKER_DRAFT = renderCaseMarker({
  code: 'draft',
  file: DRAFT_FILE
});

/**
 * Load a casebook through `source`: never throws for bad content (problems are
 * reported in the result and as case markers), and never reads a path built
 * from an unsafe name.
 */
export async function loadCasebook(
  source: ICasebookSource,
  options: loadCasebook.IOptions = {}
): Promise<ICasebook> {
  const root = options.root ?? '';
  // The root is the caller's; reject one that climbs out of the source.
  const rootPath = joinSafe('', root);
  const loader = new Private.Loader(source, rootPath, {
    maxDepth: options.maxDepth ?? loadCasebook.DEFAULT_MAX_DEPTH,
    maxEntries: options.maxEntries ?? loadCasebook.DEFAULT_MAX_ENTRIES,
    maxFileBytes: options.maxFileBytes ?? loadCasebook.DEFAULT_MAX_FILE_BYTES,
    concurrency: Math.max(1, options.concurrency ?? 8)
  });
  const { cases, problems, hasDiagnoses } = await loader.load();
  return { name: source.rootName, root, cases, problems, hasDiagnoses };
}

/**
 * Options and defaults of loadCasebook.
 */
export namespace loadCasebook {
  /**
   * How to load a casebook.
   */
  export interface IOptions {
    /**
     * Source-relative folder of the casebook ('' by default); case paths in the
     * result are relative to it. An unsafe root (absolute, `..`) makes the
     * load reject.
     */
    root?: string;
    /** How many folder levels below a case folder are listed. */
    maxDepth?: number;
    /** How many data files of one case are listed at most. */
    maxEntries?: number;
    /** How many case folders are scanned at once. */
    concurrency?: number;
    /**
     * The largest descriptor, diagnoses file or case notebook accepted, in
     * bytes, checked before reading when the source tells sizes; a larger
     * workbook is not read and a larger notebook is marked and not offered.
     */
    maxFileBytes?: number;
  }

  /** Default `maxDepth`. */
  export const DEFAULT_MAX_DEPTH = 4;

  /** Default `maxEntries`. */
  export const DEFAULT_MAX_ENTRIES = 500;

  /** Default `maxFileBytes`: MAX_NOTEBOOK_BYTES (50 MB). */
  export const DEFAULT_MAX_FILE_BYTES = MAX_NOTEBOOK_BYTES;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Resolved loader settings.
   */
  export interface ISettings {
    maxDepth: number;
    maxEntries: number;
    maxFileBytes: number;
    concurrency: number;
  }

  /**
   * What a loader produces.
   */
  export interface IResult {
    cases: ICase[];
    problems: ICasebookProblem[];
    hasDiagnoses: boolean;
  }

  /**
   * The files and markers found for one case folder.
   */
  interface IScan {
    files: ICaseFiles;
    markers: CaseMarker[];
  }

  /**
   * Root-level folders that look like case folders (`pandas_3`).
   */
  const CASE_FOLDER = /^[A-Za-z][A-Za-z0-9]*_\d+$/;

  /**
   * One load of one casebook.
   */
  export class Loader {
    constructor(
      private readonly source: ICasebookSource,
      private readonly rootPath: string,
      private readonly settings: ISettings
    ) {}

    /**
     * Load everything.
     */
    async load(): Promise<IResult> {
      const rootEntries = await this.list('', DESCRIPTOR_FILE);
      if (rootEntries === null) {
        this.problems.push(
          casebookProblem(
            { code: 'root-not-found', root: this.displayRoot() },
            'error',
            { file: '' }
          )
        );
        return { cases: [], problems: this.problems, hasDiagnoses: false };
      }
      const rows = await this.readDescriptor(rootEntries);
      const diagnoses = await this.readDiagnoses(rootEntries);
      const { folders, refused } = await this.findFolders(rootEntries, rows);

      const described = new Set(rows.map(row => row.name));
      const cases = await mapLimit(rows, this.settings.concurrency, row =>
        this.makeCase(
          row,
          folders.get(row.name) ?? null,
          diagnoses,
          [],
          refused.get(row.name)
        )
      );
      const orphanNames = [...folders.keys()]
        .filter(name => !described.has(name))
        .sort(naturalCompare);
      const orphans = await mapLimit(
        orphanNames,
        this.settings.concurrency,
        name =>
          this.makeCase(emptyRow(name), folders.get(name) ?? null, diagnoses, [
            { code: 'not-in-descriptor' }
          ])
      );
      if (diagnoses) {
        const known = new Set([...described, ...orphanNames]);
        const strays = [...diagnoses.keys()].filter(name => !known.has(name));
        if (strays.length > 0) {
          this.problems.push(
            casebookProblem(
              {
                code: 'stray-diagnoses',
                file: DIAGNOSES_FILE,
                names: strays.slice(0, 10),
                more: Math.max(0, strays.length - 10)
              },
              'warning',
              { file: DIAGNOSES_FILE }
            )
          );
        }
      }
      return {
        cases: [...cases, ...orphans],
        problems: this.problems,
        hasDiagnoses: diagnoses !== null
      };
    }

    /**
     * Read and parse the descriptor, reporting when it is absent or unreadable.
     */
    private async readDescriptor(
      rootEntries: ISourceEntry[]
    ): Promise<IDescriptorRow[]> {
      if (!hasFile(rootEntries, DESCRIPTOR_FILE)) {
        this.problems.push(
          casebookProblem(
            {
              code: 'no-descriptor',
              file: DESCRIPTOR_FILE,
              root: this.displayRoot()
            },
            'error',
            { file: DESCRIPTOR_FILE }
          )
        );
        return [];
      }
      const bytes = await this.readWorkbookFile(rootEntries, DESCRIPTOR_FILE);
      if (bytes === null) {
        return [];
      }
      const parsed = await parseDescriptor(bytes, DESCRIPTOR_FILE);
      this.problems.push(...parsed.problems);
      return parsed.rows;
    }

    /**
     * Read and parse the optional diagnoses; null when absent or unusable.
     */
    private async readDiagnoses(
      rootEntries: ISourceEntry[]
    ): Promise<Map<string, string> | null> {
      if (!hasFile(rootEntries, DIAGNOSES_FILE)) {
        return null;
      }
      const bytes = await this.readWorkbookFile(rootEntries, DIAGNOSES_FILE);
      if (bytes === null) {
        return null;
      }
      const parsed = await parseDiagnoses(bytes, DIAGNOSES_FILE);
      this.problems.push(...parsed.problems);
      return parsed.problems.some(problem => problem.severity === 'error')
        ? null
        : parsed.byCase;
    }

    /**
     * Map case names to their folders: `benchmark/<case>` first, then
     * `<case>` at the root (only for described names or case-like names).
     * Folders the source refuses are reported and mapped to a case marker.
     */
    private async findFolders(
      rootEntries: ISourceEntry[],
      rows: IDescriptorRow[]
    ): Promise<IFolders> {
      const folders = new Map<string, string>();
      const refused = new Map<string, CaseMarker>();
      const benchmark = findEntry(rootEntries, BENCHMARK_FOLDER, 'directory');
      if (benchmark && !this.isRefused(benchmark, BENCHMARK_FOLDER)) {
        const entries = await this.list(BENCHMARK_FOLDER, BENCHMARK_FOLDER);
        for (const entry of entries ?? []) {
          if (entry.type !== 'directory' || entry.name.startsWith('.')) {
            continue;
          }
          if (!isSafeName(entry.name)) {
            this.problems.push(
              casebookProblem(
                {
                  code: 'unsafe-folder',
                  path: `${BENCHMARK_FOLDER}/${entry.name}`
                },
                'warning',
                { file: `${BENCHMARK_FOLDER}/` }
              )
            );
            continue;
          }
          const folder = `${BENCHMARK_FOLDER}/${entry.name}`;
          if (this.isRefused(entry, folder, entry.name)) {
            refused.set(entry.name, refusal(folder, entry.refused));
            continue;
          }
          folders.set(entry.name, folder);
        }
      }
      const described = new Set(rows.map(row => row.name));
      for (const entry of rootEntries) {
        if (
          entry.type === 'directory' &&
          !folders.has(entry.name) &&
          !refused.has(entry.name) &&
          isSafeName(entry.name) &&
          (described.has(entry.name) || CASE_FOLDER.test(entry.name))
        ) {
          if (this.isRefused(entry, entry.name, entry.name)) {
            refused.set(entry.name, refusal(entry.name, entry.refused));
            continue;
          }
          folders.set(entry.name, entry.name);
        }
      }
      return { folders, refused };
    }

    /**
     * Whether the source refused an entry; reports it as an error naming the
     * path (and the case) when so.
     */
    private isRefused(
      entry: ISourceEntry,
      path: string,
      name?: string
    ): entry is ISourceEntry & { refused: string } {
      if (entry.refused === undefined) {
        return false;
      }
      this.problems.push(
        casebookProblem(
          { code: 'refused', path, reason: entry.refused },
          'error',
          { file: path, case: name }
        )
      );
      return true;
    }

    /**
     * Read a workbook listed at the root, unless the source refused it or it is
     * over the size limit; a failure becomes a problem and null.
     */
    private async readWorkbookFile(
      rootEntries: ISourceEntry[],
      file: string
    ): Promise<ArrayBuffer | null> {
      const entry = findEntry(rootEntries, file, 'file');
      if (entry && this.isRefused(entry, file)) {
        return null;
      }
      let size = entry?.size;
      if (size === undefined && this.source.size) {
        try {
          size =
            (await this.source.size(joinSafe(this.rootPath, file))) ??
            undefined;
        } catch {
          // The read below reports an unreadable file.
          size = undefined;
        }
      }
      if (Private.isTooBig(size, this.settings.maxFileBytes)) {
        this.problems.push(
          casebookProblem(
            {
              code: 'file-too-big',
              file,
              size,
              max: this.settings.maxFileBytes
            },
            'error',
            { file }
          )
        );
        return null;
      }
      return this.readBinary(file);
    }

    /**
     * Build one case from its row and folder (or why its folder was refused).
     */
    private async makeCase(
      row: IDescriptorRow,
      folder: string | null,
      diagnoses: Map<string, string> | null,
      markers: CaseMarker[],
      refused?: CaseMarker
    ): Promise<ICase> {
      const scan: IScan =
        refused !== undefined
          ? { files: noFiles(), markers: [refused] }
          : folder === null
            ? { files: noFiles(), markers: [{ code: 'folder-not-found' }] }
            : await this.scan(row.name, folder);
      const library = libraryOf(row.name);
      return {
        ...row,
        library,
        notebookSpecific:
          library === 'NBspecific' || /nb[\s_-]*specific/i.test(row.rootCause),
        diagnosis: diagnoses?.get(row.name) ?? null,
        files: scan.files,
        problems: [...markers, ...scan.markers].map(m => renderCaseMarker(m)),
        markers: [...markers, ...scan.markers]
      };
    }

    /**
     * List a case folder (recursively, within the limits) and classify its files.
     */
    private async scan(name: string, folder: string): Promise<IScan> {
      const files: ICaseFiles = { ...noFiles(), folder };
      const markers: CaseMarker[] = [];
      const { maxDepth, maxEntries } = this.settings;
      let tooDeep = false;
      let tooMany = false;
      // Whether the case folder itself could not be listed.
      let unlisted = false;
      // Files present but refused or over the size limit: their marker says
      // why, so they are not also reported missing.
      const withheld = new Set<FileKind>();
      // Breadth-first, so a cap keeps the shallow files.
      let level: string[] = [folder];
      for (let depth = 0; level.length > 0 && !tooMany; depth++) {
        const next: string[] = [];
        for (const dir of level) {
          let entries: ISourceEntry[] | null;
          try {
            entries = await this.source.list(joinSafe(this.rootPath, dir));
          } catch (error) {
            markers.push({
              code: 'unlisted',
              path: dir,
              reason: reason(error)
            });
            unlisted ||= depth === 0;
            continue;
          }
          if (entries === null) {
            if (depth === 0) {
              markers.push({ code: 'folder-not-found' });
              unlisted = true;
            }
            continue;
          }
          for (const entry of [...entries].sort((a, b) =>
            naturalCompare(a.name, b.name)
          )) {
            if (entry.name.startsWith('.')) {
              continue;
            }
            if (!isEntryName(entry.name)) {
              this.problems.push(
                casebookProblem(
                  { code: 'unsafe-entry', name: entry.name, dir },
                  'warning',
                  { file: dir, case: name }
                )
              );
              continue;
            }
            const path = `${dir}/${entry.name}`;
            if (this.isRefused(entry, path, name)) {
              markers.push(refusal(path, entry.refused));
              const kind = depth === 0 ? classify(name, entry.name) : null;
              if (kind !== null) {
                withheld.add(kind);
              }
              continue;
            }
            if (entry.type === 'directory') {
              if (depth + 1 > maxDepth) {
                tooDeep = true;
              } else {
                next.push(path);
              }
              continue;
            }
            if (depth === 0 && entry.name === DRAFT_FILE) {
              markers.push({ code: 'draft', file: DRAFT_FILE });
              continue;
            }
            const kind = depth === 0 ? classify(name, entry.name) : null;
            if (kind !== null) {
              const max = this.settings.maxFileBytes;
              if (kind === 'readme' || !Private.isTooBig(entry.size, max)) {
                files[kind] = true;
              } else {
                // Present, but never to be opened: say why instead of "missing".
                withheld.add(kind);
                markers.push({ code: 'too-big', path, size: entry.size, max });
              }
              continue;
            }
            if (files.data.length >= maxEntries) {
              tooMany = true;
              break;
            }
            files.data.push(path);
          }
          if (tooMany) {
            break;
          }
        }
        level = next;
      }
      if (!unlisted) {
        if (!files.reproduced && !withheld.has('reproduced')) {
          markers.push({ code: 'no-reproduced' });
        }
        if (!files.fixed && !withheld.has('fixed')) {
          markers.push({ code: 'no-fixed' });
        }
        if (!files.readme && !withheld.has('readme')) {
          markers.push({ code: 'no-readme' });
        }
        if (files.data.length === 0) {
          markers.push({ code: 'no-data' });
        }
      }
      if (tooMany) {
        markers.push({ code: 'too-many-files', max: maxEntries });
      }
      if (tooDeep) {
        markers.push({ code: 'too-deep', max: maxDepth });
      }
      return { files, markers };
    }

    /**
     * List a casebook-relative folder; a failure becomes a problem and null.
     */
    private async list(
      path: string,
      file: string
    ): Promise<ISourceEntry[] | null> {
      try {
        return await this.source.list(joinSafe(this.rootPath, path));
      } catch (error) {
        this.problems.push(
          casebookProblem(
            {
              code: 'unlisted',
              path: path || this.displayRoot(),
              reason: reason(error)
            },
            'error',
            { file }
          )
        );
        return null;
      }
    }

    /**
     * Read a casebook-relative file; a failure becomes a problem and null.
     */
    private async readBinary(path: string): Promise<ArrayBuffer | null> {
      try {
        return await this.source.readBinary(joinSafe(this.rootPath, path));
      } catch (error) {
        this.problems.push(
          casebookProblem(
            { code: 'unreadable', path, reason: reason(error) },
            'error',
            { file: path }
          )
        );
        return null;
      }
    }

    /**
     * The casebook root as shown in messages.
     */
    private displayRoot(): string {
      return this.rootPath || this.source.rootName || '/';
    }

    private readonly problems: ICasebookProblem[] = [];
  }

  /**
   * Case folders by case name, and the refused ones with their case marker.
   */
  interface IFolders {
    folders: Map<string, string>;
    refused: Map<string, CaseMarker>;
  }

  /**
   * The top-level files of a case folder the loader recognises.
   */
  type FileKind = 'original' | 'reproduced' | 'fixed' | 'readme';

  /**
   * Which of the case's notebooks or README a top-level file is, if any.
   */
  function classify(name: string, file: string): FileKind | null {
    if (file === `${name}.ipynb`) {
      return 'original';
    }
    if (file === `${name}_reproduced.ipynb`) {
      return 'reproduced';
    }
    if (file === `${name}_fixed.ipynb`) {
      return 'fixed';
    }
    return file.toLowerCase() === 'readme.md' ? 'readme' : null;
  }

  /**
   * The marker for an entry the source refused.
   */
  function refusal(path: string, reason: string): CaseMarker {
    return { code: 'refused', path, reason };
  }

  /**
   * Whether a size (when known) is over the limit.
   */
  export function isTooBig(
    size: number | null | undefined,
    max: number
  ): size is number {
    return typeof size === 'number' && size > max;
  }

  /**
   * The entry of a listing with that name and kind, if any.
   */
  function findEntry(
    entries: ISourceEntry[],
    name: string,
    type: ISourceEntry['type']
  ): ISourceEntry | undefined {
    return entries.find(entry => entry.type === type && entry.name === name);
  }

  /**
   * A descriptor row for a case folder the descriptor does not name.
   */
  function emptyRow(name: string): IDescriptorRow {
    return {
      name,
      eid: '',
      ename: '',
      evalue: '',
      traceback: [],
      rootCause: '',
      crashType: '',
      pipelineStage: '',
      mlBug: '',
      datasets: [],
      notebookUrl: '',
      row: 0
    };
  }

  /**
   * File status of a case without a folder.
   */
  function noFiles(): ICaseFiles {
    return {
      folder: null,
      original: false,
      reproduced: false,
      fixed: false,
      readme: false,
      data: []
    };
  }

  /**
   * Whether a listing has a file of that name.
   */
  function hasFile(entries: ISourceEntry[], name: string): boolean {
    return entries.some(entry => entry.type === 'file' && entry.name === name);
  }

  /**
   * Whether a listed entry name can be appended to a path (data files may have
   * spaces and other characters a case name may not).
   */
  function isEntryName(name: string): boolean {
    return (
      name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name)
    );
  }

  /**
   * Compare names with their numbers in numeric order (`pandas_2` < `pandas_10`).
   */
  export function naturalCompare(a: string, b: string): number {
    return a.localeCompare(b, 'en', { numeric: true });
  }

  /**
   * A short reason out of a rejection.
   */
  function reason(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }

  /**
   * Map with at most `limit` calls in flight, keeping the input order.
   */
  async function mapLimit<T, R>(
    items: readonly T[],
    limit: number,
    fn: (item: T) => Promise<R>
  ): Promise<R[]> {
    const results = new Array<R>(items.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) {
        const index = next++;
        results[index] = await fn(items[index]);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(limit, items.length) }, worker)
    );
    return results;
  }
}
