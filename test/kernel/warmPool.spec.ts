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

import { chdirCode } from '../../src/kernel/snippets';
import { WarmKernelPool } from '../../src/kernel/warmPool';

import {
  addKernelspecs,
  muteKernelspec,
  sharedFolder,
  sharedServer
} from '../sharedServer';

jest.setTimeout(180000);

const server = sharedServer();
// This spec's folders and files, in a folder of its own on the shared server.
const mine = sharedFolder('warmPool-').path;

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

/**
 * The running kernels' ids once `id` is not among them, or after `ms`.
 */
async function untilGone(
  settings: ServerConnection.ISettings,
  id: string,
  ms: number
): Promise<string[]> {
  const end = Date.now() + ms;
  let ids = await running(settings);
  while (ids.includes(id) && Date.now() < end) {
    await new Promise(resolve => setTimeout(resolve, 200));
    ids = await running(settings);
  }
  return ids;
}

async function running(settings: ServerConnection.ISettings) {
  return (await KernelAPI.listRunning(settings)).map(k => k.id);
}

describe('WarmKernelPool', () => {
  let settings: ServerConnection.ISettings;
  let contents: ContentsManager;
  let kernels: KernelManager;
  let pool: WarmKernelPool;

  beforeAll(async () => {
    settings = server.settings;
    contents = new ContentsManager({ serverSettings: settings });
    kernels = new KernelManager({ serverSettings: settings });
    await kernels.ready;
    // A case folder the working copies point at, outside the workspace.
    await contents.save(`${mine}/JunoBench`, { type: 'directory' });
    await contents.save(`${mine}/JunoBench/benchmark`, { type: 'directory' });
    await contents.save(`${mine}/JunoBench/benchmark/numpy_1`, {
      type: 'directory'
    });
  });

  afterAll(async () => {
    kernels.dispose();
  });

  beforeEach(() => {
    pool = new WarmKernelPool({ serverSettings: settings, contents });
  });

  afterEach(async () => {
    await pool.drain();
    pool.dispose();
  });

  it.each([
    ['the server root', ''],
    ['a folder it creates', `${mine}/warm/here`]
  ])('starts a kernel in %s, which a restart keeps', async (_, folder) => {
    const warm = await pool.fill('python3', folder);
    expect(warm).not.toBeNull();
    expect(pool.current?.id).toBe(warm!.id);
    expect(await running(settings)).toContain(warm!.id);
    const kernel = kernels.connectTo({
      model: { id: warm!.id, name: warm!.name }
    });
    try {
      const root = await stdout(kernel, 'import os; print(os.getcwd())');
      await kernel.restart();
      expect(await stdout(kernel, 'import os; print(os.getcwd())')).toBe(root);
      if (folder) {
        expect(root.endsWith(`/${folder}`)).toBe(true);
      } else {
        // The replay's move for a kernel outside the notebook's folder:
        // the case folder relative to the server root.
        await stdout(kernel, chdirCode(`${mine}/JunoBench/benchmark/numpy_1`));
        const moved = await stdout(kernel, 'import os; print(os.getcwd())');
        expect(moved).toBe(`${root}/${mine}/JunoBench/benchmark/numpy_1`);
      }
    } finally {
      kernel.dispose();
    }
  });

  it('hands the kernel over once, only for its name and folder, to a notebook session by id', async () => {
    const folder = '';
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
          path: `${mine}/junobench-work/demo/numpy_1/numpy_1-1.ipynb`,
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
    const kernel = kernels.connectTo({
      model: { id: taken!.id, name: taken!.name }
    });
    try {
      expect(session.kernel.id).toBe(taken!.id);
      // As the replay does it in the working copy: restart, then move into
      // the case folder relative to the server root (where it started).
      const root = await stdout(kernel, 'import os; print(os.getcwd())');
      await kernel.restart();
      await stdout(kernel, chdirCode(`${mine}/JunoBench/benchmark/numpy_1`));
      const moved = await stdout(kernel, 'import os; print(os.getcwd())');
      expect(moved).toBe(`${root}/${mine}/JunoBench/benchmark/numpy_1`);
      // Draining the pool now must not touch the kernel it handed out.
      await pool.drain();
      expect(await running(settings)).toContain(taken!.id);
    } finally {
      kernel.dispose();
      await SessionAPI.shutdownSession(session.id, settings);
    }
  });

  it('replaces a warm kernel of another folder and shuts the old one down', async () => {
    const first = await pool.fill('python3', `${mine}/warm/a`);
    const second = await pool.fill('python3', `${mine}/warm/b`);
    expect(second).not.toBeNull();
    expect(second!.id).not.toBe(first!.id);
    // A fill for what is already warm starts nothing new.
    expect((await pool.fill('python3', `${mine}/warm/b`))?.id).toBe(second!.id);
    // The old kernel's shutdown runs beside the new kernel's start, which
    // may answer first (a forked kernel does within half a second).
    const ids = await untilGone(settings, first!.id, 30_000);
    expect(ids).not.toContain(first!.id);
    expect(ids).toContain(second!.id);
  });

  it('shuts down a kernel replaced while it was still starting', async () => {
    const before = await running(settings);
    const starting = pool.fill('python3', `${mine}/warm/c`);
    const replacement = await pool.fill('python3', `${mine}/warm/d`);
    expect(await starting).toBeNull();
    const ids = await running(settings);
    expect(ids).toContain(replacement!.id);
    expect(
      ids.filter(id => !before.includes(id) && id !== replacement!.id)
    ).toEqual([]);
  });

  it('drains and releases', async () => {
    const warm = await pool.fill('python3', `${mine}/warm/e`);
    await pool.drain();
    expect(pool.current).toBeNull();
    expect(await running(settings)).not.toContain(warm!.id);
    const again = await pool.fill('python3', `${mine}/warm/e`);
    const taken = await pool.take('python3', `${mine}/warm/e`);
    await pool.release(taken!);
    expect(await running(settings)).not.toContain(again!.id);
  });

  it('shuts down a kernel that does not answer in time', async () => {
    // A "kernel" that starts and never opens its channels (as ipykernel does
    // when another process took its IOPub port).
    const remove = addKernelspecs({
      'mute-warm': muteKernelspec('Mute (warm)')
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    // This test's pool gives a kernel 3 s; afterEach drains and disposes it.
    pool.dispose();
    pool = new WarmKernelPool({
      serverSettings: settings,
      contents,
      readyTimeoutMs: 3000
    });
    try {
      expect(await pool.fill('mute-warm', `${mine}/warm/g`)).toBeNull();
      expect(pool.current).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('no answer within 3 s of starting')
      );
      const mute = async () =>
        (await KernelAPI.listRunning(settings)).filter(
          k => k.name === 'mute-warm'
        );
      expect(await mute()).toEqual([]);
    } finally {
      warn.mockRestore();
      remove();
    }
  });

  it('reports a kernel that cannot start as null and stays empty', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await pool.fill('no-such-kernel', `${mine}/warm/f`)).toBeNull();
      expect(pool.current).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('could not start a warm no-such-kernel kernel')
      );
    } finally {
      warn.mockRestore();
    }
  });
});
