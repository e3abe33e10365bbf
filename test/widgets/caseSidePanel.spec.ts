/**
 * The case side panel over real models: a working copy of a demo case made
 * on a real Jupyter server as "Open" makes it, in a real NotebookPanel with
 * its replay and check controllers. The replay's crash opens "Why it
 * crashed", the check's verdict opens its section, each is announced, and
 * the exception is said once in the whole panel: the reasons refer to it.
 */
import * as fs from 'fs';
import * as path from 'path';

import { SessionContextDialogs } from '@jupyterlab/apputils';
import { Context } from '@jupyterlab/docregistry';
import type { INotebookModel } from '@jupyterlab/notebook';
import { NotebookModelFactory } from '@jupyterlab/notebook';
import { ServiceManager } from '@jupyterlab/services';
import { NBTestUtils } from '@jupyterlab/testutils';
import { nullTranslator } from '@jupyterlab/translation';
import { CommandRegistry } from '@lumino/commands';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import { loadLocalCasebook } from '../../src/cli/verify';
import { CASE_SECTIONS, CaseStory } from '../../src/model/caseStory';
import type { CaseSection } from '../../src/model/caseStory';
import { NotebookHandler } from '../../src/model/notebookHandler';
import { makeWorkingCopy } from '../../src/model/workingCopy';
import type { INotebookJSON } from '../../src/replay/types';
import type { IWorkingCopy } from '../../src/tokens';
import { CaseSidePanel } from '../../src/widgets/caseSidePanel';

import { sharedFolder, sharedServer } from '../sharedServer';

jest.setTimeout(240000);

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

const DEMO = path.resolve(__dirname, '../../demo/casebook');
// Points PageConfig, which `new ServiceManager()` reads, at the shared server.
sharedServer();
// This spec's files, in a folder of its own on the shared server.
const mine = sharedFolder('caseSidePanel-').path;
const trans = nullTranslator.load('jupyterlab_junobench');

/** Deliver pending widget updates and let React commit them. */
function flush(change?: () => void): void {
  act(() => {
    change?.();
    MessageLoop.flush();
  });
}

/**
 * Run a model's action inside `act`, so that the renders it causes while it
 * runs (widget updates delivered on animation frames) are committed when it
 * ends, together with the updates still pending then.
 */
async function settle<T>(action: () => Promise<T>): Promise<T> {
  let out!: T;
  await act(async () => {
    out = await action();
    MessageLoop.flush();
  });
  return out;
}

/** How often `part` occurs in `text`. */
function occurrences(text: string, part: string): number {
  return part ? text.split(part).length - 1 : 0;
}

describe('CaseSidePanel over a replayed and checked working copy', () => {
  let manager: ServiceManager;

  beforeAll(async () => {
    manager = new ServiceManager({ standby: 'never' });
    await manager.ready;
  });

  afterAll(async () => {
    manager.dispose();
  });

  /** Upload a demo case folder (notebooks and data) under `demo/` of this spec's folder. */
  async function upload(name: string): Promise<string> {
    const folder = `${mine}/demo/benchmark/${name}`;
    const walk = async (dir: string, rel: string) => {
      await manager.contents.save(rel, { type: 'directory' });
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          await walk(full, `${rel}/${entry.name}`);
        } else if (entry.name.endsWith('.ipynb')) {
          await manager.contents.save(`${rel}/${entry.name}`, {
            type: 'notebook',
            format: 'json',
            content: JSON.parse(fs.readFileSync(full, 'utf8'))
          });
        } else {
          await manager.contents.save(`${rel}/${entry.name}`, {
            type: 'file',
            format: 'text',
            content: fs.readFileSync(full, 'utf8')
          });
        }
      }
    };
    await manager.contents.save(`${mine}/demo`, { type: 'directory' });
    await manager.contents.save(`${mine}/demo/benchmark`, {
      type: 'directory'
    });
    await walk(path.join(DEMO, 'benchmark', name), folder);
    return folder;
  }

  /** Make the working copy as "Open" does, and open it in a NotebookPanel. */
  async function openWorkingCopy(name: string) {
    const book = await loadLocalCasebook(DEMO);
    const c = book.cases.find(x => x.name === name)!;
    const caseFolder = await upload(name);
    const reproduced = JSON.parse(
      fs.readFileSync(
        path.join(DEMO, 'benchmark', name, `${name}_reproduced.ipynb`),
        'utf8'
      )
    ) as INotebookJSON;
    const copy = makeWorkingCopy(reproduced, {
      caseName: name,
      casebook: book.name,
      caseFolder,
      attempt: 1,
      recordedEname: c.ename,
      recordedEvalue: c.evalue
    });
    await manager.contents.save(`${mine}/work`, { type: 'directory' });
    const file = `${mine}/work/${name}-1.ipynb`;
    await manager.contents.save(file, {
      type: 'notebook',
      format: 'json',
      content: copy
    });
    const context = new Context<INotebookModel>({
      manager,
      factory: new NotebookModelFactory({}),
      path: file,
      sessionDialogs: new SessionContextDialogs(),
      kernelPreference: {
        shouldStart: true,
        canStart: true,
        shutdownOnDispose: true,
        name: 'python3'
      }
    });
    await context.initialize(false);
    await context.sessionContext.initialize();
    await context.sessionContext.session?.kernel?.info;
    const panel = NBTestUtils.createNotebookPanel(context);
    return { panel, context, c };
  }

  it('opens and announces the crash and the verdict, and says the exception once', async () => {
    const { panel, context, c } = await openWorkingCopy('numpy_1');
    const handler = new NotebookHandler({
      panel,
      sessions: manager.sessions,
      contents: manager.contents,
      caseOf: name => (name === c.name ? c : null),
      progress: null,
      timeoutMs: () => 60000,
      trans
    });
    const copy: IWorkingCopy = handler;
    const { replay, check } = copy;
    const story = new CaseStory();
    const side = new CaseSidePanel({
      story,
      commands: new CommandRegistry(),
      commandIds: { showState: 'x:state', nextHint: 'x:hint' },
      trans
    });
    const news: CaseSection[] = [];
    story.news.connect((_, section) => {
      news.push(section);
    });
    const titles = () => [
      ...side.node.querySelectorAll<HTMLElement>('.jp-Junobench-sectionTitle')
    ];
    const expanded = () =>
      Object.fromEntries(
        titles().map(t => [t.dataset.section, t.getAttribute('aria-expanded')])
      );
    const status = () =>
      side.node.querySelector('[role="status"]')?.textContent ?? '';
    const section = (s: CaseSection) =>
      side.node.querySelector(`.jp-Junobench-caseSection[data-section="${s}"]`);
    try {
      flush(() => {
        story.current = copy;
        Widget.attach(side, document.body);
      });
      expect(titles().map(t => t.dataset.section)).toEqual([...CASE_SECTIONS]);
      // Only the verdict is open before anything happened, and nothing is announced.
      expect(expanded()).toEqual({
        verdict: 'true',
        why: 'false',
        order: 'false',
        hints: 'false',
        diagnose: 'false',
        environment: 'false'
      });
      expect(status()).toBe('');

      const result = await settle(() => replay.replay('recorded'));
      expect(result?.status).toBe('crashed');
      const error = replay.state.result?.error;
      expect(error).toBeTruthy();
      const exception = `${error!.ename}: ${error!.evalue}`;
      expect(error!.ename).toBe('ValueError');
      // The crash opened "Why it crashed", which says the exception, and was announced.
      expect(news).toEqual(['order', 'why']);
      expect(expanded().why).toBe('true');
      expect(status()).toBe('New in Why it crashed.');
      expect(section('why')?.textContent).toContain(exception);

      const verdict = await settle(() => check.check());
      expect(verdict?.passed).toBe(false);
      // (a) The check's news opened nothing else: the verdict is open, and
      // the crash's section stays open; sections without news stay closed.
      expect(news).toEqual(['order', 'why', 'verdict']);
      expect(expanded()).toEqual({
        verdict: 'true',
        why: 'true',
        order: 'true',
        hints: 'false',
        diagnose: 'false',
        environment: 'false'
      });
      // (d) The status region announces the latest result's section.
      expect(status()).toBe('New in Verdict and reasons.');

      // (c) The reasons refer to the crash the replay shows.
      const reasons = Array.from(
        section('verdict')?.querySelectorAll('.jp-Junobench-checkReasons li') ??
          []
      ).map(li => li.textContent ?? '');
      expect(reasons.length).toBeGreaterThan(0);
      expect(
        reasons.some(r => r.includes('the same error as the replay'))
      ).toBe(true);
      expect(reasons.some(r => r.includes(exception))).toBe(false);
      // The check did find the replay's exception from a fresh kernel: the
      // reason refers to it rather than omitting it.
      expect(
        verdict!.findings.some(
          f =>
            f.code === 'fresh-error' &&
            f.ename === error!.ename &&
            f.evalue === error!.evalue
        )
      ).toBe(true);

      // (b) With every section open, the exception is said once, in "Why it crashed".
      flush(() => CASE_SECTIONS.forEach(s => story.expand(s)));
      expect(Object.values(expanded())).toEqual(
        CASE_SECTIONS.map(() => 'true')
      );
      expect(occurrences(side.node.textContent ?? '', exception)).toBe(1);
      expect(occurrences(section('why')?.textContent ?? '', exception)).toBe(1);
    } finally {
      flush(() => side.dispose());
      story.dispose();
      handler.dispose();
      panel.dispose();
      await context.sessionContext.shutdown();
      context.dispose();
    }
  });
});
