/**
 * The warm kernel pool against a real Jupyter server and real Python kernels.
 */
import {
  ContentsManager,
  KernelAPI,
  KernelManager,
  ServerConnection,
  SessionAPI
} from '@jupyterlab/services';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { JupyterServer } from '@jupyterlab/testing';
import { PathExt } from '@jupyterlab/coreutils';

import { chdirCode } from '../../src/kernel/snippets';
import {
  WARM_FOLDER,
  WarmKernelPool,
  warmFolderFor,
  warmFolderOf
} from '../../src/kernel/warmPool';

jest.setTimeout(180000);

const server = new JupyterServer();

/** Run code in a kernel and return what it printed on stdout. */
async function stdout(
  kernel: Kernel.IKernelConnection,
  code: string
): Promise<string> {
  let text = '';
  const future = kernel.requestExecute({ code });
  future.onIOPub = msg => {
    if (msg.header.msg_type === 'stream') {
      text += (msg as KernelMessage.IStreamMsg).content.text;
    }
  };
  const reply = await future.done;
  expect(reply.content.status).toBe('ok');
  return text.trim();
}

async function running(settings: ServerConnection.ISettings) {
  return (await KernelAPI.listRunning(settings)).map(k => k.id);
}

describe('warmFolderFor / warmFolderOf', () => {
  it.each([
    [
      'junobench-work/demo/numpy_1/numpy_1-1.ipynb',
      `junobench-work/demo/${WARM_FOLDER}`
    ],
    ['w/b/c/x.ipynb', `w/b/${WARM_FOLDER}`],
    ['/a/b/c/d/e.ipynb', `a/b/c/${WARM_FOLDER}`],
    ['case/x.ipynb', WARM_FOLDER]
  ])('%s -> %s', (path, folder) => {
    expect(warmFolderFor(path)).toBe(folder);
  });

  it.each([
    ['junobench-work', 'demo', `junobench-work/demo/${WARM_FOLDER}`],
    ['/deep/work/', 'JunoBench', `deep/work/JunoBench/${WARM_FOLDER}`],
    ['', 'demo', `demo/${WARM_FOLDER}`]
  ])('workspace %s, casebook %s -> %s', (workspace, book, folder) => {
    expect(warmFolderOf(workspace, book)).toBe(folder);
    expect(warmFolderFor(`${workspace}/${book}/case/case-1.ipynb`)).toBe(
      folder
    );
  });
});

describe('WarmKernelPool', () => {
  let settings: ServerConnection.ISettings;
  let contents: ContentsManager;
  let kernels: KernelManager;
  let pool: WarmKernelPool;

  beforeAll(async () => {
    await server.start({ configData: { ServerApp: { allow_root: true } } });
    settings = ServerConnection.makeSettings();
    contents = new ContentsManager({ serverSettings: settings });
    kernels = new KernelManager({ serverSettings: settings });
    await kernels.ready;
    // A case folder the working copies point at, outside the workspace.
    await contents.save('JunoBench', { type: 'directory' });
    await contents.save('JunoBench/benchmark', { type: 'directory' });
    await contents.save('JunoBench/benchmark/numpy_1', { type: 'directory' });
  });

  afterAll(async () => {
    kernels.dispose();
    await server.shutdown();
  });

  beforeEach(() => {
    pool = new WarmKernelPool({ serverSettings: settings, contents });
  });

  afterEach(async () => {
    await pool.drain();
    pool.dispose();
  });

  it('starts a kernel in the warm folder, which a restart keeps, and the replay chdir still lands in the case folder', async () => {
    const folder = warmFolderOf('junobench-work', 'demo');
    const warm = await pool.fill('python3', folder);
    expect(warm).not.toBeNull();
    expect(pool.current?.id).toBe(warm!.id);
    expect(await running(settings)).toContain(warm!.id);
    const kernel = kernels.connectTo({
      model: { id: warm!.id, name: warm!.name }
    });
    try {
      const cwd = await stdout(kernel, 'import os; print(os.getcwd())');
      expect(cwd.endsWith(folder)).toBe(true);
      await kernel.restart();
      // What the replay controller sends: a path relative to the kernel's
      // directory, computed from the working copy's folder.
      const notebook = 'junobench-work/demo/numpy_1/numpy_1-1.ipynb';
      const rel = PathExt.relative(
        PathExt.dirname(notebook),
        'JunoBench/benchmark/numpy_1'
      );
      await stdout(kernel, chdirCode(rel));
      const moved = await stdout(kernel, 'import os; print(os.getcwd())');
      expect(moved.endsWith('JunoBench/benchmark/numpy_1')).toBe(true);
    } finally {
      kernel.dispose();
    }
  });

  it('hands the kernel over once, only for its name and folder, to a notebook session by id', async () => {
    const folder = warmFolderOf('junobench-work', 'demo');
    const warm = await pool.fill('python3', folder);
    expect(await pool.take('python3', 'elsewhere')).toBeNull();
    expect(await pool.take('other-kernel', folder)).toBeNull();
    const taken = await pool.take('python3', folder);
    expect(taken?.id).toBe(warm!.id);
    expect(pool.current).toBeNull();
    expect(await pool.take('python3', folder)).toBeNull();
    // The server side of openOrReveal(path, 'Notebook', { id, name }): the
    // session is created with the existing kernel's id (a body the typed
    // SessionAPI does not allow, so posted directly, as SessionContext does).
    const response = await ServerConnection.makeRequest(
      `${settings.baseUrl}api/sessions`,
      {
        method: 'POST',
        body: JSON.stringify({
          path: 'junobench-work/demo/numpy_1/numpy_1-1.ipynb',
          type: 'notebook',
          name: 'numpy_1-1.ipynb',
          kernel: { id: taken!.id, name: taken!.name }
        })
      },
      settings
    );
    expect(response.status).toBe(201);
    const session = (await response.json()) as {
      id: string;
      kernel: { id: string };
    };
    try {
      expect(session.kernel.id).toBe(taken!.id);
      // Draining the pool now must not touch the kernel it handed out.
      await pool.drain();
      expect(await running(settings)).toContain(taken!.id);
    } finally {
      await SessionAPI.shutdownSession(session.id, settings);
    }
  });

  it('replaces a warm kernel of another folder and shuts the old one down', async () => {
    const first = await pool.fill('python3', warmFolderOf('work', 'a'));
    const second = await pool.fill('python3', warmFolderOf('work', 'b'));
    expect(second).not.toBeNull();
    expect(second!.id).not.toBe(first!.id);
    // A fill for what is already warm starts nothing new.
    expect((await pool.fill('python3', warmFolderOf('work', 'b')))?.id).toBe(
      second!.id
    );
    const ids = await running(settings);
    expect(ids).not.toContain(first!.id);
    expect(ids).toContain(second!.id);
  });

  it('shuts down a kernel replaced while it was still starting', async () => {
    const before = await running(settings);
    const starting = pool.fill('python3', warmFolderOf('work', 'c'));
    const replacement = await pool.fill('python3', warmFolderOf('work', 'd'));
    expect(await starting).toBeNull();
    const ids = await running(settings);
    expect(ids).toContain(replacement!.id);
    expect(
      ids.filter(id => !before.includes(id) && id !== replacement!.id)
    ).toEqual([]);
  });

  it('drains and releases', async () => {
    const warm = await pool.fill('python3', warmFolderOf('work', 'e'));
    await pool.drain();
    expect(pool.current).toBeNull();
    expect(await running(settings)).not.toContain(warm!.id);
    const again = await pool.fill('python3', warmFolderOf('work', 'e'));
    const taken = await pool.take('python3', warmFolderOf('work', 'e'));
    await pool.release(taken!);
    expect(await running(settings)).not.toContain(again!.id);
  });

  it('reports a kernel that cannot start as null and stays empty', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(
        await pool.fill('no-such-kernel', warmFolderOf('work', 'f'))
      ).toBeNull();
      expect(pool.current).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('could not start a warm no-such-kernel kernel')
      );
    } finally {
      warn.mockRestore();
    }
  });
});
