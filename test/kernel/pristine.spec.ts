/**
 * Whether a kernel has run nothing yet (so a replay may skip its restart),
 * against a real Jupyter server and a real Python kernel.
 */
import { KernelManager } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';

import { isPristineKernel } from '../../src/kernel/probe';
import {
  chdirCode,
  isPristineAnswer,
  pristineQuestion
} from '../../src/kernel/snippets';

import { sharedServer } from '../sharedServer';

jest.setTimeout(180000);

describe('isPristineAnswer', () => {
  it.each([
    [{ count: 1, names: 0, touched: false }, true],
    [{ count: 2, names: 0, touched: false }, false],
    [{ count: 1, names: 1, touched: false }, false],
    [{ count: 1, names: 0, touched: true }, false],
    [{ count: '1', names: 0, touched: false }, false],
    [{ count: 1, names: 0 }, false],
    [null, false],
    ['{"count": 1, "names": 0, "touched": false}', false],
    [undefined, false]
  ])('reads %j as %s', (answer, expected) => {
    expect(isPristineAnswer(answer)).toBe(expected);
  });
});

describe('isPristineKernel', () => {
  const server = sharedServer();
  let kernels: KernelManager;
  let kernel: Kernel.IKernelConnection;

  /** Run code the way the given options say and wait for its reply. */
  async function run(
    code: string,
    options: { silent?: boolean; store_history?: boolean } = {}
  ): Promise<string> {
    const reply = await kernel.requestExecute({ code, ...options }).done;
    return reply.content.status;
  }

  beforeAll(async () => {
    kernels = new KernelManager({
      serverSettings: server.settings
    });
    await kernels.ready;
  });

  afterAll(async () => {
    kernels.dispose();
  });

  // A new kernel for each test rather than one restarted between them: a restart's
  // reconnection can leave the connection silent under load (the page and the server
  // disagree on the websocket subprotocol; CI stops 33 to 36). The restart itself is
  // tested once, below.
  beforeEach(async () => {
    kernel = await kernels.startNew({ name: 'python3' });
  });

  afterEach(async () => {
    await kernel.shutdown().catch(() => undefined);
  });

  it('is true for a kernel that has run nothing, and stays true after asking', async () => {
    expect(await isPristineKernel(kernel)).toBe(true);
    // The check itself is silent: it neither counts nor leaves a name.
    expect(await isPristineKernel(kernel)).toBe(true);
  });

  it('is false once a cell ran with history, even one that only failed', async () => {
    expect(await run('1/0')).toBe('error');
    expect(await isPristineKernel(kernel)).toBe(false);
  });

  it('is false once code defined a name, even silently', async () => {
    expect(await run('x = 1', { silent: true, store_history: false })).toBe(
      'ok'
    );
    expect(await isPristineKernel(kernel)).toBe(false);
  });

  it("is false after a replay's setup moved the working directory", async () => {
    expect(
      await run(chdirCode('.'), { silent: true, store_history: false })
    ).toBe('ok');
    expect(await isPristineKernel(kernel)).toBe(false);
  });

  it('is true again after a restart', async () => {
    await run('y = 2');
    expect(await isPristineKernel(kernel)).toBe(false);
    await kernel.restart();
    expect(await isPristineKernel(kernel)).toBe(true);
  });

  it('is false for a kernel busy past the timeout', async () => {
    const busy = kernel.requestExecute({ code: 'import time; time.sleep(3)' });
    expect(await isPristineKernel(kernel, 500)).toBe(false);
    await busy.done;
  });

  it('answers through user_expressions, printing nothing and leaving no user name', async () => {
    let printed = '';
    const { code, expression } = pristineQuestion();
    const future = kernel.requestExecute({
      code,
      silent: true,
      store_history: false,
      user_expressions: { junobench: expression }
    });
    future.onIOPub = msg => {
      if (msg.header.msg_type === 'stream') {
        printed += (msg.content as { text: string }).text;
      }
    };
    const reply = await future.done;
    expect(printed).toBe('');
    const answer = (
      reply.content as unknown as {
        user_expressions: Record<string, { data: Record<string, unknown> }>;
      }
    ).user_expressions.junobench.data['application/json'];
    expect(answer).toEqual({ count: 1, names: 0, touched: false });
    expect(await isPristineKernel(kernel)).toBe(true);
  });
});
