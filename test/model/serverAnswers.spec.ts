/**
 * The readers of the server extension's answers word its codes, not its
 * English: against a local HTTP server that answers as
 * jupyterlab_junobench/handlers.py does, CaseAuthor rejects with the writer's
 * refusal and words the writer's warnings, and CasebookManager says why the
 * demo casebook or the one-request listing is unavailable, each through the
 * translation function it was given.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { Contents, Session } from '@jupyterlab/services';
import { ServerConnection } from '@jupyterlab/services';

import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { CaseAuthor } from '../../src/model/authoring';
import { CasebookManager } from '../../src/model/casebookManager';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept), so a
 * lower-case word is English that did not go through it.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** A status and a JSON body (a string body is sent as is). */
type Answer = [number, Record<string, unknown> | string];

/** A server answering every request with `answer(url)`; closed after each test. */
let server: http.Server | null = null;

async function serve(
  answer: (url: string) => Answer
): Promise<ServerConnection.ISettings> {
  server = http.createServer((request, response) => {
    const [status, body] = answer(request.url ?? '');
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>(resolve =>
    server!.listen(0, '127.0.0.1', () => resolve())
  );
  const { port } = server.address() as AddressInfo;
  return ServerConnection.makeSettings({
    baseUrl: `http://127.0.0.1:${port}/`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    token: ''
  });
}

afterEach(async () => {
  const s = server;
  server = null;
  if (s) {
    s.closeAllConnections();
    await new Promise(resolve => s.close(resolve));
  }
});

/** A case author of the server, wording with `translate`. */
const author = (
  serverSettings: ServerConnection.ISettings,
  translate?: Translate
) =>
  new CaseAuthor({
    serverSettings,
    contents: {} as Contents.IManager,
    sessions: {} as Session.IManager,
    translate
  });

/** A casebook manager of the server, wording with `translate`. */
const manager = (
  serverSettings: ServerConnection.ISettings,
  translate?: Translate
) =>
  new CasebookManager({
    contents: {} as Contents.IManager,
    serverSettings,
    translate
  });

const REFUSED: Answer = [
  400,
  {
    code: 'authoring',
    problem: { code: 'already-casebook', folder: '/B', file: 'D.XLSX' },
    message: 'English for logs.',
    reason: 'Bad Request'
  }
];

describe('CaseAuthor', () => {
  it.each<[string, Translate | undefined, string]>([
    [
      'in English',
      undefined,
      '/B already holds D.XLSX: it is a casebook already'
    ],
    ['translated', shout, '/B ALREADY HOLDS D.XLSX: IT IS A CASEBOOK ALREADY']
  ])("rejects with the writer's refusal, %s", async (_, translate, text) => {
    const settings = await serve(() => REFUSED);
    await expect(author(settings, translate).newCasebook('b')).rejects.toThrow(
      text
    );
  });

  it("falls back on the server's English for a code it does not know, then on the status", async () => {
    const settings = await serve(url =>
      url.includes('/authoring/casebook')
        ? [400, { code: 'later-code', message: 'Later.' }]
        : [502, 'Bad gateway']
    );
    await expect(author(settings, shout).newCasebook('b')).rejects.toThrow(
      /^Later\.$/
    );
    await expect(
      author(settings, shout).writeFixed('b', 'P_1', {
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {},
        cells: []
      })
    ).rejects.toThrow('POST /JUNOBENCH/AUTHORING/fixed ANSWERED 502');
  });

  it("words the writer's warnings", async () => {
    const settings = await serve(() => [
      200,
      {
        ok: true,
        files: ['D.XLSX'],
        backups: [],
        warnings: [
          {
            code: 'traceback-shortened',
            case: 'P_1',
            limit: 32767,
            lines: 3,
            file: 'D.XLSX',
            message: 'English for logs.'
          },
          { code: 'later-code', message: 'A later warning.' }
        ]
      }
    ]);
    const answer = await author(settings, shout).newCasebook('b');
    expect(answer.warnings).toEqual([
      'THE TRACEBACK OF P_1 IS LONGER THAN AN XLSX CELL HOLDS (32767 CHARACTERS); 3 LINE(S) WERE LEFT OUT OR CUT IN D.XLSX',
      'A later warning.'
    ]);
  });
});

describe('CasebookManager', () => {
  it.each<[string, Answer, string]>([
    [
      "the server's code",
      [404, { code: 'no-demo', message: 'English for logs.' }],
      'THE BUNDLED DEMO CASEBOOK IS UNAVAILABLE: NO DEMO CASEBOOK IS BUNDLED WITH JUPYTERLAB_JUNOBENCH. SET A CASEBOOK PATH IN THE SETTINGS.'
    ],
    [
      'a 404 without a code (no server extension)',
      [404, { message: 'Not Found' }],
      'THE BUNDLED DEMO CASEBOOK IS UNAVAILABLE: THE JUPYTERLAB_JUNOBENCH SERVER EXTENSION IS NOT ENABLED. SET A CASEBOOK PATH IN THE SETTINGS.'
    ],
    [
      'another refusal without a code',
      [500, 'oops'],
      'THE BUNDLED DEMO CASEBOOK IS UNAVAILABLE: HTTP 500. SET A CASEBOOK PATH IN THE SETTINGS.'
    ]
  ])(
    'says why the demo casebook is unavailable: %s',
    async (_, answer, text) => {
      const settings = await serve(() => answer);
      await expect(manager(settings, shout).demoPath()).rejects.toThrow(text);
    }
  );

  it('says why the one-request listing is refused, in its code', async () => {
    const settings = await serve(() => [
      400,
      { code: 'path-hidden', path: 'B/.G', message: 'English for logs.' }
    ]);
    await expect(manager(settings, shout).fetchTree('B/.G')).rejects.toThrow(
      'REFUSING THE CASEBOOK PATH "B/.G": HIDDEN FOLDERS ARE NOT LISTED.'
    );
  });
});
