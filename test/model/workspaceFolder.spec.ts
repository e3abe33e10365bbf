/**
 * The workspace folder setting, read in one place (WorkspaceFolder).
 */
import {
  DEFAULT_WORKSPACE_FOLDER,
  WorkspaceFolder
} from '../../src/model/workspace';

describe('WorkspaceFolder', () => {
  it.each<[unknown, string]>([
    ['junobench-work', 'junobench-work'],
    ['/class/work/', 'class/work'],
    ['//deep//', 'deep'],
    ['', DEFAULT_WORKSPACE_FOLDER],
    ['///', DEFAULT_WORKSPACE_FOLDER],
    [null, DEFAULT_WORKSPACE_FOLDER],
    [42, DEFAULT_WORKSPACE_FOLDER]
  ])('reads %j as %j', (value, expected) => {
    expect(WorkspaceFolder.normalize(value)).toBe(expected);
  });

  it('says when the folder changes, once per change', () => {
    const folder = new WorkspaceFolder();
    const seen: string[] = [];
    folder.changed.connect((_, value) => seen.push(value));
    expect(folder.folder).toBe(DEFAULT_WORKSPACE_FOLDER);
    folder.set('/a/');
    folder.set('a');
    folder.set('');
    expect(seen).toEqual(['a', DEFAULT_WORKSPACE_FOLDER]);
    expect(folder.folder).toBe(DEFAULT_WORKSPACE_FOLDER);
  });
});
