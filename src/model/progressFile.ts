/**
 * The progress backup file on the Jupyter server, through the contents API.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';
import { ServerConnection } from '@jupyterlab/services';

import { ProgressBackup } from '../progress/backup';
import type { IProgressFile } from '../progress/backup';
import { ensureFolders } from '../kernel/folders';

/**
 * The backup file of a casebook's progress: `<folder>/<casebook>/progress.json`,
 * beside the learner's working copies of that casebook.
 */
export function progressBackupPath(folder: string, casebook: string): string {
  return PathExt.join(folder, casebook, ProgressBackup.FILE_NAME);
}

/** A progress file at a server path; a missing file reads as null. */
export function serverProgressFile(
  contents: Contents.IManager,
  path: string
): IProgressFile {
  const save = (text: string) =>
    contents.save(path, { type: 'file', format: 'text', content: text });
  return {
    path,
    async read(): Promise<string | null> {
      try {
        const model = await contents.get(path, {
          type: 'file',
          format: 'text',
          content: true
        });
        return typeof model.content === 'string' ? model.content : null;
      } catch (reason) {
        if (
          reason instanceof ServerConnection.ResponseError &&
          reason.response.status === 404
        ) {
          return null;
        }
        throw reason;
      }
    },
    async write(text: string): Promise<void> {
      try {
        await save(text);
      } catch (reason) {
        // The server answered, so this is the first write of the casebook
        // and its folder may not exist yet; a server that cannot be reached
        // (a network error) is left to the caller's retries.
        if (!(reason instanceof ServerConnection.ResponseError)) {
          throw reason;
        }
        await ensureFolders(contents, path.split('/').slice(0, -1));
        await save(text);
      }
    }
  };
}
