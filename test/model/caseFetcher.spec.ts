/**
 * CaseFetcher against a local HTTP server that answers `/junobench/fetch-case`
 * and `/junobench/fetch-jobs/<id>` as the server extension does: it follows a
 * job to its end, words the job's progress code with the translation function
 * it was given (never the server's English), reports each failure as a code
 * with parameters (the server's own code included; rendered in English or
 * through the translation function), and stops asking once disposed.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { ServerConnection } from '@jupyterlab/services';

import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { CaseFetcher, renderFetchFailure } from '../../src/model/caseFetcher';
import type { FetchFailure, IFetchState } from '../../src/model/caseFetcher';

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

/** A status and a JSON body (a string body is sent as is, not as JSON). */
type Answer = [number, Record<string, unknown> | string];

/**
 * Serve one fetch job whose answer to the n-th question (1-based) is `job(n)`;
 * `start` answers the request that starts it (default: 202 with the job id),
 * `source` the question whether cases can be fetched.
 */
async function fakeServer(
  job: (n: number) => Answer,
  answers: { start?: () => Answer; source?: () => Answer } = {}
): Promise<IFakeServer> {
  let count = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((request, response) => {
    const send = (status: number, body: Record<string, unknown> | string) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const url = request.url ?? '';
    if (request.method === 'POST' && url.startsWith('/junobench/fetch-case')) {
      send(...(answers.start?.() ?? ([202, { id: JOB }] as Answer)));
    } else if (url.startsWith('/junobench/fetch-source')) {
      send(
        ...(answers.source?.() ?? ([404, { message: 'not here' }] as Answer))
      );
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

/** A job's progress as the server sends it, one a question (English for logs). */
const STEPS = [
  {
    code: 'fetch-list',
    source: 'git@x:y',
    message: 'English for logs.'
  },
  { code: 'checkout', cases: ['numpy_1'], message: 'English for logs.' },
  { code: 'done', message: 'English for logs.' }
];

/** Wait some poll intervals (to see that nothing more happens). */
const intervals = (n: number) =>
  new Promise(resolve => setTimeout(resolve, n * POLL_MS));

describe('CaseFetcher', () => {
  let server: IFakeServer | null = null;
  let made: CaseFetcher | null = null;

  /** A fetcher of the fake server, disposed after the test. */
  function fetcherOf(fake: IFakeServer, translate?: Translate): CaseFetcher {
    made = new CaseFetcher({
      serverSettings: fake.settings,
      pollMs: POLL_MS,
      translate
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
        ? [200, { state: 'running', percent: n * 40, progress: STEPS[n - 1] }]
        : [200, { state: 'done', percent: 100, progress: STEPS[2] }]
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
      detail: 'done',
      error: null
    });
    expect(seen.map(s => [s.state, s.percent, s.detail])).toEqual([
      ['running', null, ''],
      ['running', 40, 'fetching the file list of git@x:y'],
      [
        'running',
        80,
        'checking out the descriptor files and 1 case folder(s): numpy_1'
      ],
      ['done', 100, 'done']
    ]);
    await intervals(5);
    expect(server.polls()).toBe(3);
  });

  it("words the job's progress with its translation function, never the server's English", async () => {
    server = await fakeServer(n =>
      n < 4
        ? [200, { state: 'running', percent: null, progress: STEPS[n - 1] }]
        : [200, { state: 'done', percent: 100, progress: null }]
    );
    const fetcher = fetcherOf(server, shout);
    const seen: string[] = [];
    fetcher.progress.connect((_, { state }) => seen.push(state.detail));
    await fetcher.fetch('demo/casebook', 'numpy_1');
    expect(seen).toEqual([
      '',
      'FETCHING THE FILE LIST OF git@x:y',
      'CHECKING OUT THE DESCRIPTOR FILES AND 1 CASE FOLDER(S): numpy_1',
      'DONE',
      ''
    ]);
  });

  it.each<[string, unknown]>([
    ['a code this version does not know', { code: 'later', message: 'Later.' }],
    ['text (an older server)', 'fetching the file list'],
    ['nothing', undefined]
  ])(
    'says nothing of %s (the card says it is fetching)',
    async (_, progress) => {
      server = await fakeServer(n =>
        n < 2
          ? [200, { state: 'running', progress, detail: 'English.' }]
          : [200, { state: 'done', progress }]
      );
      const seen: string[] = [];
      const fetcher = fetcherOf(server);
      fetcher.progress.connect((__, { state }) => seen.push(state.detail));
      await fetcher.fetch('demo/casebook', 'numpy_1');
      expect(seen).toEqual(['', '', '']);
    }
  );

  it("reports a job the server does not know with the server's code", async () => {
    server = await fakeServer(() => [
      404,
      { code: 'no-fetch-job', id: JOB, message: 'No fetch here.' }
    ]);
    const fetcher = fetcherOf(server);
    const result = await fetcher.fetch('demo/casebook', 'numpy_1');
    expect(result.state).toBe('failed');
    expect(result.error).toEqual({
      code: 'server',
      status: 404,
      problem: { code: 'no-fetch-job', id: JOB },
      message: 'No fetch here.'
    });
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
    expect(result.error).toEqual({ code: 'stopped' });
    // At most the question in flight at dispose time is answered; then none.
    const after = server.polls();
    await intervals(10);
    expect(server.polls()).toBe(after);
    // A disposed fetcher starts nothing.
    const late = await fetcher.fetch('demo/casebook', 'numpy_2');
    expect(late.state).toBe('failed');
    expect(late.error).toEqual({ code: 'stopped' });
    expect(server.polls()).toBe(after);
  });

  it.each<[string, Answer, Answer, FetchFailure]>([
    [
      'a refused start, with its code and its English',
      [403, { code: 'fetch-off', message: 'Fetching cases is turned off.' }],
      [200, { state: 'running' }],
      {
        code: 'server',
        status: 403,
        problem: { code: 'fetch-off' },
        message: 'Fetching cases is turned off.'
      }
    ],
    [
      'a refused start with a code this version does not know',
      [409, { code: 'later-code', message: 'Later.' }],
      [200, { state: 'running' }],
      { code: 'server', status: 409, problem: null, message: 'Later.' }
    ],
    [
      'a refused start without a message',
      [500, 'oops'],
      [200, { state: 'running' }],
      { code: 'server', status: 500, problem: null, message: null }
    ],
    [
      'a failed job, with its code and its English',
      [202, { id: JOB }],
      [
        200,
        {
          state: 'failed',
          error: { code: 'busy', dest: '/c', lock: '/c/l', message: 'Busy.' }
        }
      ],
      {
        code: 'job',
        problem: { code: 'busy', dest: '/c', lock: '/c/l' },
        message: 'Busy.'
      }
    ],
    [
      'a failed job with a code this version does not know',
      [202, { id: JOB }],
      [
        200,
        { state: 'failed', error: { code: 'later-code', message: 'Later.' } }
      ],
      { code: 'job', problem: null, message: 'Later.' }
    ],
    [
      'a failed job of an older server, with its reason as text',
      [202, { id: JOB }],
      [200, { state: 'failed', error: 'git lfs pull failed' }],
      { code: 'job', problem: null, message: 'git lfs pull failed' }
    ],
    [
      'a failed job without a reason',
      [202, { id: JOB }],
      [200, { state: 'failed' }],
      { code: 'job', problem: null, message: null }
    ],
    [
      'a job question the server refuses',
      [202, { id: JOB }],
      [500, {}],
      { code: 'server', status: 500, problem: null, message: null }
    ]
  ])('reports %s as a code', async (_, start, job, failure) => {
    server = await fakeServer(() => job, { start: () => start });
    const result = await fetcherOf(server).fetch('demo/casebook', 'numpy_1');
    expect(result).toEqual({
      state: 'failed',
      percent: null,
      detail: '',
      error: failure
    });
  });

  it('reports a server it cannot reach as a code with the error text', async () => {
    // A port nobody listens on any more.
    const gone = await fakeServer(() => [200, {}]);
    await gone.close();
    const fetcher = fetcherOf(gone);
    const result = await fetcher.fetch('demo/casebook', 'numpy_1');
    expect(result.state).toBe('failed');
    expect(result.error).toEqual({
      code: 'unreachable',
      detail: expect.any(String)
    });
    const source = await fetcher.source('demo/casebook');
    expect(source).toMatchObject({
      fetchable: false,
      reason: null,
      failure: { code: 'unreachable' }
    });
  });

  it.each<[string, Answer, Record<string, unknown>]>([
    [
      'a sparse copy',
      [
        200,
        { allowed: true, fetchable: true, source: 'git@x:y', reason: null }
      ],
      { fetchable: true, source: 'git@x:y', reason: null, failure: null }
    ],
    [
      "the server's reason, as its code",
      [
        200,
        {
          allowed: false,
          fetchable: false,
          source: 'git@x:y',
          reason: { code: 'fetch-off', message: 'Off.' }
        }
      ],
      { fetchable: false, reason: { code: 'fetch-off' }, failure: null }
    ],
    [
      'a copy not made by a sparse fetch, as a code with its path',
      [
        200,
        {
          allowed: true,
          fetchable: false,
          source: null,
          reason: { code: 'not-fetched-copy', path: 'b', message: 'Not.' }
        }
      ],
      {
        fetchable: false,
        reason: { code: 'not-fetched-copy', path: 'b' },
        failure: null
      }
    ],
    [
      'a refused question, as a code',
      [
        400,
        {
          code: 'path-outside-root',
          path: '../b',
          message: 'Refusing the casebook path.'
        }
      ],
      {
        fetchable: false,
        source: null,
        reason: null,
        failure: {
          code: 'server',
          status: 400,
          problem: { code: 'path-outside-root', path: '../b' },
          message: 'Refusing the casebook path.'
        }
      }
    ]
  ])('asks whether cases can be fetched: %s', async (_, answer, expected) => {
    server = await fakeServer(() => [200, {}], { source: () => answer });
    expect(await fetcherOf(server).source('demo/casebook')).toMatchObject(
      expected
    );
  });
});

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept), so a
 * lower-case word in a rendered phrase is English that did not go through it.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/**
 * Every failure code, and its English: the server's code through its
 * renderer; its own words pass through only without a code known here.
 */
const FAILURES: Array<[FetchFailure, string]> = [
  [
    { code: 'unreachable', detail: 'ECONNREFUSED' },
    'the server could not be reached (ECONNREFUSED)'
  ],
  [{ code: 'server', status: 500, problem: null, message: null }, 'HTTP 500'],
  [
    {
      code: 'server',
      status: 403,
      problem: { code: 'fetch-off' },
      message: 'Something else.'
    },
    'Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).'
  ],
  [
    { code: 'server', status: 409, problem: null, message: 'Fetching is off.' },
    'Fetching is off.'
  ],
  [{ code: 'job', problem: null, message: null }, 'the server gave no reason'],
  [
    {
      code: 'job',
      problem: { code: 'unexpected', detail: 'OSERROR' },
      message: 'Something else.'
    },
    'the server failed unexpectedly: OSERROR'
  ],
  [{ code: 'job', problem: null, message: 'Git failed.' }, 'Git failed.'],
  [
    { code: 'stopped' },
    'stopped following the fetch (it goes on on the server)'
  ]
];

/** The codes (a missing one fails to compile). */
const FAILURE_CODES: Record<FetchFailure['code'], true> = {
  unreachable: true,
  server: true,
  job: true,
  stopped: true
};

describe('renderFetchFailure', () => {
  it.each(FAILURES.map(([f, text]) => [f.code, f, text] as const))(
    '%s renders in English',
    (_code, failure, text) => {
      expect(renderFetchFailure(failure)).toBe(text);
      expect(renderFetchFailure(failure, english)).toBe(text);
    }
  );

  it.each(
    FAILURES.filter(
      ([f]) =>
        !('message' in f && f.message !== null) ||
        ('problem' in f && f.problem !== null)
    ).map(([f]) => [f.code, f] as const)
  )('%s goes through the translation function', (_code, failure) => {
    const msgids: string[] = [];
    const phrase = renderFetchFailure(failure, (msgid, ...args) => {
      msgids.push(msgid);
      return shout(msgid, ...args);
    });
    expect(phrase.match(/[a-z]{2,}/g) ?? []).toEqual([]);
    expect(msgids).toHaveLength(1);
  });

  it('has a row for every code', () => {
    expect([...new Set(FAILURES.map(([f]) => f.code))].sort()).toEqual(
      Object.keys(FAILURE_CODES).sort()
    );
  });
});
