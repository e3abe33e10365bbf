/**
 * Where the command line's results go, files and standard output, and a
 * failure to write them said in our words, naming the file: a full disk, a
 * read-only folder, a folder that is not there.
 */
import { writeFileSync } from 'fs';

/** A result the command line could not write (see `writeOutputFile`). */
export class OutputError extends Error {}

/**
 * A system error (`ENOSPC`, `EACCES`, …) in a few English words with its code,
 * or null when `error` is not one we know.
 */
export function systemWords(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? '';
  const words = Private.WORDS[code];
  return words ? `${words} (${code})` : null;
}

/**
 * Write `text` to `file`, or throw an `OutputError` that names the file and
 * says why in our words: "cannot write the JSON report to FILE: the disk is
 * full (ENOSPC)". `what` names the result ("the JSON report").
 */
export function writeOutputFile(
  file: string,
  text: string,
  what: string
): void {
  try {
    writeFileSync(file, text);
  } catch (reason) {
    const why =
      systemWords(reason) ?? (reason as Error).message ?? String(reason);
    throw new OutputError(`cannot write ${what} to ${file}: ${why}`);
  }
}

/**
 * Watch standard output: `console.log` drops what it cannot write (a full
 * disk under `> file`), so the process would end with 0 and half a report.
 * Returns what failed first, said in our words, or null; a reader that went
 * away (`| head`, EPIPE) is not a failure.
 */
export function watchStandardOutput(): () => string | null {
  let failure: string | null = null;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (failure === null && error.code !== 'EPIPE') {
      failure = `cannot write to standard output: ${systemWords(error) ?? error.message}; the output is incomplete`;
    }
  });
  return () => failure;
}

namespace Private {
  /** The system errors a write meets on an ordinary machine, in words. */
  export const WORDS: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOENT: 'its folder does not exist',
    ENOTDIR: 'a part of its path is not a folder',
    EISDIR: 'it is a folder',
    EIO: 'an input/output error of the disk',
    ENOMEM: 'the machine is out of memory',
    EPIPE: 'the reader went away'
  };
}
