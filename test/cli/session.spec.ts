/**
 * A headless session is handed over only once its kernel has answered: a
 * kernel that never answers is reported by name within the time allowed
 * (and shut down), and a real kernel is ready for its first cell.
 */
import type { IServerHandle } from '../../src/cli/server';
import { sessionsFor, startSession, uniqueSuffix } from '../../src/cli/session';
import { addKernelspecs, sharedServer } from '../sharedServer';

jest.setTimeout(120000);

describe('startSession', () => {
  let server: IServerHandle;
  let removeKernelspecs: () => void;

  beforeAll(() => {
    server = sharedServer();
    // A "kernel" that starts and never opens its channels.
    removeKernelspecs = addKernelspecs({
      mute: {
        argv: [
          'python',
          '-c',
          'import time; time.sleep(600)',
          '{connection_file}'
        ],
        display_name: 'Mute',
        language: 'python'
      }
    });
  });

  afterAll(() => {
    removeKernelspecs?.();
  });

  it('waits for a real kernel to answer, then runs its first cell', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      const connection = await startSession(sessions, {
        path: `ready-${uniqueSuffix()}.ipynb`,
        name: 'ready.ipynb'
      });
      const reply = await connection.kernel!.requestExecute({ code: '1 + 1' })
        .done;
      expect(reply.content.status).toBe('ok');
      await connection.shutdown();
    } finally {
      dispose();
    }
  });

  it('names a kernel that never answers and shuts it down', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      await expect(
        startSession(sessions, {
          path: `mute-${uniqueSuffix()}.ipynb`,
          name: 'mute.ipynb',
          kernel: 'mute',
          readyMs: 3000
        })
      ).rejects.toThrow('the kernel "mute" did not answer within 3 s');
      await sessions.refreshRunning();
      expect([...sessions.running()].map(s => s.kernel?.name)).not.toContain(
        'mute'
      );
    } finally {
      dispose();
    }
  });
});
