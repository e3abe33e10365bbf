/**
 * CaseFetcher against a local HTTP server that answers `/junobench/fetch-case`
 * and `/junobench/fetch-jobs/<id>` as the server extension does: it follows a
 * job to its end, reports a failed job with the server's message, and stops
 * asking once disposed.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { ServerConnection } from '@jupyterlab/services';

import { CaseFetcher } from '../../src/model/caseFetcher';
import type { IFetchState } from '../../src/model/caseFetcher';

const JOB = '0123456789abcdef0123456789abcdef';
const POLL_MS = 20;

/** A stand-in for the server extension's fetch endpoints. */
interface IFakeServer {
  /** Settings to reach it. */
  settings: ServerConnection.ISettings;
  /** How many times the job has been asked about. */
  polls(): number;
  /** Resolves once the job has been asked about `n` times. */
  polled(n: number): Promise<void>;
  /** Stop the server. */
  close(): Promise<void>;
}

/**
 * Serve one fetch job whose answer to the n-th question (1-based) is `job(n)`:
 * a status and a body.
 */
async function fakeServer(
  job: (n: number) => [number, Record<string, unknown>]
): Promise<IFakeServer> {
  let count = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((request, response) => {
    const send = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const url = request.url ?? '';
    if (request.method === 'POST' && url.startsWith('/junobench/fetch-case')) {
      send(202, { id: JOB });
    } else if (url.startsWith(`/junobench/fetch-jobs/${JOB}`)) {
      count++;
      send(...job(count));
      for (const w of waiting.filter(w => count >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    } else {
      send(404, { message: 'not here' });
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    settings: ServerConnection.makeSettings({
      baseUrl: `http://127.0.0.1:${port}/`,
      wsUrl: `ws://127.0.0.1:${port}/`,
      token: ''
    }),
    polls: () => count,
    polled: n =>
      count >= n
        ? Promise.resolve()
        : new Promise(resolve => waiting.push({ n, resolve })),
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      })
  };
}

/** Wait some poll intervals (to see that nothing more happens). */
const intervals = (n: number) =>
  new Promise(resolve => setTimeout(resolve, n * POLL_MS));

describe('CaseFetcher', () => {
  let server: IFakeServer | null = null;
  let made: CaseFetcher | null = null;

  /** A fetcher of the fake server, disposed after the test. */
  function fetcherOf(fake: IFakeServer): CaseFetcher {
    made = new CaseFetcher({
      serverSettings: fake.settings,
      pollMs: POLL_MS
    });
    return made;
  }

  afterEach(async () => {
    made?.dispose();
    made = null;
    await server?.close();
    server = null;
  });

  it('follows a job until it is done, reporting each state, then stops asking', async () => {
    server = await fakeServer(n =>
      n < 3
        ? [200, { state: 'running', percent: n * 40, detail: `step ${n}` }]
        : [200, { state: 'done', percent: 100, detail: 'fetched' }]
    );
    const fetcher = fetcherOf(server);
    const seen: IFetchState[] = [];
    fetcher.progress.connect((_, { name, state }) => {
      expect(name).toBe('numpy_1');
      seen.push(state);
    });
    const result = await fetcher.fetch('demo/casebook', 'numpy_1');
    expect(result).toEqual({
      state: 'done',
      percent: 100,
      detail: 'fetched',
      error: null
    });
    expect(seen.map(s => [s.state, s.percent])).toEqual([
      ['running', null],
      ['running', 40],
      ['running', 80],
      ['done', 100]
    ]);
    await intervals(5);
    expect(server.polls()).toBe(3);
  });

  it("reports a job the server does not know with the server's message", async () => {
    server = await fakeServer(() => [404, { message: 'No fetch here.' }]);
    const fetcher = fetcherOf(server);
    const result = await fetcher.fetch('demo/casebook', 'numpy_1');
    expect(result.state).toBe('failed');
    expect(result.error).toBe('No fetch here.');
    await intervals(5);
    expect(server.polls()).toBe(1);
  });

  it('stops asking about a job that never ends once disposed', async () => {
    server = await fakeServer(() => [200, { state: 'running' }]);
    const fetcher = fetcherOf(server);
    const fetching = fetcher.fetch('demo/casebook', 'numpy_1');
    await server.polled(3);
    fetcher.dispose();
    expect(fetcher.isDisposed).toBe(true);
    // The fetch resolves (it never rejects) as no longer followed.
    const result = await fetching;
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/stopped following/);
    // At most the question in flight at dispose time is answered; then none.
    const after = server.polls();
    await intervals(10);
    expect(server.polls()).toBe(after);
    // A disposed fetcher starts nothing.
    const late = await fetcher.fetch('demo/casebook', 'numpy_2');
    expect(late.state).toBe('failed');
    expect(server.polls()).toBe(after);
  });
});
