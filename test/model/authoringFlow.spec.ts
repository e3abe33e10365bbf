/**
 * AuthoringFlow's decisions that need no server: a cancelled or blank folder
 * creates nothing, "Save as JunoBench Case…" without a casebook says so and
 * records nothing, and "Save as JunoBench Reference Fix" without a casebook
 * asks nothing. The author points at a server that is not there, so any call
 * that reached it would be reported as a failure. (The whole flow on a real
 * server: test/authoring/flow.spec.ts.)
 */
import { ContentsManager, ServerConnection } from '@jupyterlab/services';
import type { Kernel } from '@jupyterlab/services';
import { nullTranslator } from '@jupyterlab/translation';

import { TRANSLATION_DOMAIN } from '../../src/i18n';
import { CaseAuthor } from '../../src/model/authoring';
import { AuthoringFlow } from '../../src/model/authoringFlow';
import { CasebookManager } from '../../src/model/casebookManager';

/** Dialogs that answer from a script and log what they were asked. */
function scripted(answers: { folder?: string | null }) {
  const asked: string[] = [];
  const reports: Array<[string, string]> = [];
  const dialogs: AuthoringFlow.IDialogs = {
    askFolder: async () => {
      asked.push('askFolder');
      return answers.folder ?? null;
    },
    editCase: async () => {
      asked.push('editCase');
      return null;
    },
    confirmReplace: async () => {
      asked.push('confirmReplace');
      return false;
    },
    chooseCase: async () => {
      asked.push('chooseCase');
      return null;
    },
    report: async (title, message) => {
      reports.push([title, message]);
    },
    inform: async () => {
      asked.push('inform');
    }
  };
  return { dialogs, asked, reports };
}

describe('AuthoringFlow without a server', () => {
  // Port 9 (discard): nothing answers there.
  const serverSettings = ServerConnection.makeSettings({
    baseUrl: 'http://127.0.0.1:9/',
    wsUrl: 'ws://127.0.0.1:9/',
    token: ''
  });
  const contents = new ContentsManager({ serverSettings });
  afterAll(() => contents.dispose());

  /** A flow over a manager with no casebook loaded. */
  const make = (answers: { folder?: string | null }) => {
    const used: string[] = [];
    const script = scripted(answers);
    const flow = new AuthoringFlow({
      author: new CaseAuthor({
        serverSettings,
        contents,
        // Never used: nothing here gets as far as a verification kernel.
        sessions: null as never
      }),
      manager: new CasebookManager({ contents, serverSettings }),
      dialogs: script.dialogs,
      trans: nullTranslator.load(TRANSLATION_DOMAIN),
      useCasebook: async path => {
        used.push(path);
      }
    });
    return { flow, used, ...script };
  };

  it.each([
    ['cancelled', null],
    ['left blank', '   ']
  ])(
    'creates no casebook when the folder question is %s',
    async (_, folder) => {
      const { flow, asked, reports, used } = make({ folder });
      expect(await flow.newCasebook()).toBe('cancelled');
      expect(asked).toEqual(['askFolder']);
      expect(reports).toEqual([]);
      expect(used).toEqual([]);
    }
  );

  it('asks no folder when the command is given one, and reports why it failed', async () => {
    const { flow, asked, reports, used } = make({});
    expect(await flow.newCasebook('/book/')).toBe('failed');
    expect(asked).toEqual([]);
    expect(reports.map(([title]) => title)).toEqual([
      'The casebook was not created'
    ]);
    expect(used).toEqual([]);
  });

  it('says to choose a casebook before saving a case, and records nothing', async () => {
    const { flow, asked, reports } = make({});
    let read = 0;
    const kernel = {} as Kernel.IKernelConnection;
    const outcome = await flow.saveCase(
      {
        path: 'work/crash.ipynb',
        notebook: () => {
          read++;
          return { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] };
        }
      },
      kernel
    );
    expect(outcome).toBe('failed');
    expect(reports).toEqual([
      [
        'No casebook',
        'Choose a casebook (or create one with "New JunoBench Casebook…") first.'
      ]
    ]);
    expect(asked).toEqual([]);
    expect(read).toBe(0);
  });

  it('asks nothing for a reference fix without a casebook', async () => {
    const { flow, asked, reports } = make({});
    const outcome = await flow.saveFix({
      path: 'work/fix.ipynb',
      notebook: () => ({
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {},
        cells: []
      })
    });
    expect(outcome).toBe('cancelled');
    expect(asked).toEqual([]);
    expect(reports).toEqual([]);
  });
});
