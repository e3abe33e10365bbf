/** Folders on the server, through its contents service. */
import { PathExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';

/**
 * Create each missing folder of a server path, given as its parts
 * (`['junobench-work', 'demo']`), from the root down.
 */
export async function ensureFolders(
  contents: Contents.IManager,
  parts: readonly string[]
): Promise<void> {
  let current = '';
  for (const part of parts) {
    current = PathExt.join(current, part);
    try {
      await contents.get(current, { content: false });
    } catch {
      await contents.save(current, { type: 'directory' });
    }
  }
}
