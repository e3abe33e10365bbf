/**
 * The JunoBench side panel over a real CasebookModel whose catalogue holds
 * the demo casebook (read from disk, no server): typing in the search keeps the same
 * input with its caret, a status change renders that case's row only and
 * keeps every row element, a focused row keeps the focus, the keyboard moves
 * between rows, a ticked facet narrows the list, the list pages
 * by PAGE, and a case card reads its README once.
 */
import * as path from 'path';

import type { Contents } from '@jupyterlab/services';
import type { ITranslator, TranslationBundle } from '@jupyterlab/translation';
import { nullTranslator } from '@jupyterlab/translation';
import { LabIcon } from '@jupyterlab/ui-components';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import type { ICasebook } from '../../src/casebook/types';
import { loadLocalCasebook } from '../../src/cli/verify';
import { TRANSLATION_DOMAIN } from '../../src/i18n';
import { CasebookModel } from '../../src/model/casebookModel';
import type { CatalogueModel } from '../../src/model/catalogue';
import type { CaseStatus } from '../../src/tokens';
import { CasebookPanel } from '../../src/widgets/panel';
import {
  activeFilterCount,
  listMove,
  PAGE,
  tabbableRow
} from '../../src/model/panelLogic';
import type { ListMove } from '../../src/model/panelLogic';
import { emptyQuery } from '../../src/casebook/filter';
import { caseRecord } from '../casebook/fixtures';
import { MemoryManager, ScriptedFetcher } from '../model/fakes';

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom lays nothing out and has no scrollIntoView.
Element.prototype.scrollIntoView = () => undefined;

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const icon = new LabIcon({
  name: 'junobench-test:icon',
  svgstr: '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
});

/** Deliver pending widget updates and let React commit them. */
function flush(change?: () => void): void {
  act(() => {
    change?.();
    MessageLoop.flush();
  });
}

/**
 * A translator that counts, per case, how often a row was rendered (each
 * render asks for the Open button's "Open case %1" label).
 */
function countingTranslator(): {
  translator: ITranslator;
  renders: Map<string, number>;
} {
  const renders = new Map<string, number>();
  const trans = nullTranslator.load(TRANSLATION_DOMAIN);
  const bundle = Object.create(trans) as TranslationBundle;
  bundle.__ = (msgid: string, ...args: unknown[]) => {
    if (msgid === 'Open case %1') {
      const name = String(args[0]);
      renders.set(name, (renders.get(name) ?? 0) + 1);
    }
    // eslint-disable-next-line jupyter/no-dynamic-translation -- a counting wrapper forwards the message it is given
    return trans.__(msgid, ...(args as string[]));
  };
  return {
    translator: { languageCode: 'en', load: () => bundle },
    renders
  };
}

/** A keydown as the browser sends it (bubbling, cancelable). */
function key(target: Element, name: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', {
    key: name,
    bubbles: true,
    cancelable: true
  });
  flush(() => target.dispatchEvent(event));
  return event;
}

/** What a test needs of a panel on screen. */
interface IHarness {
  panel: CasebookPanel;
  model: CatalogueModel;
  renders: Map<string, number>;
  statuses: Map<string, CaseStatus>;
  opened: string[];
  described: string[];
  /** Set a case's status as the progress tracker does (the model recounts). */
  setStatus(name: string, status: CaseStatus): void;
  search(): HTMLInputElement;
  rows(): HTMLLIElement[];
  row(name: string): HTMLLIElement;
}

/** A panel over a casebook, attached to the document and rendered. */
function harness(book: ICasebook): IHarness {
  const { translator, renders } = countingTranslator();
  const statuses = new Map<string, CaseStatus>();
  const statusOf = (name: string) => statuses.get(name) ?? 'not-started';
  const opened: string[] = [];
  const described: string[] = [];
  const manager = new MemoryManager({ demo: book });
  void manager.load('demo');
  const casebook = new CasebookModel({
    manager,
    fetcher: new ScriptedFetcher(),
    // Each README says what its case is about; the reads are recorded.
    contents: {
      get: async (file: string) => {
        const c = book.cases.find(x => file.includes(`/${x.files.folder}/`))!;
        described.push(c.name);
        return { content: `About ${c.name}.` } as Contents.IModel;
      }
    }
  });
  const model = casebook.catalogue;
  model.setStatusOf(statusOf);
  model.casebook = book;
  const panel = new CasebookPanel({
    model: casebook,
    icon,
    translator,
    onOpen: name => {
      opened.push(name);
    }
  });
  flush(() => Widget.attach(panel, document.body));
  const node = panel.node;
  return {
    panel,
    model,
    renders,
    statuses,
    opened,
    described,
    setStatus: (name, status) =>
      flush(() => {
        statuses.set(name, status);
        model.setStatusOf(statusOf);
      }),
    search: () =>
      node.querySelector<HTMLInputElement>('input.jp-Junobench-search')!,
    rows: () => [
      ...node.querySelectorAll<HTMLLIElement>('li.jp-Junobench-caseItem')
    ],
    row: name =>
      node.querySelector<HTMLLIElement>(
        `li.jp-Junobench-caseItem[data-case="${name}"]`
      )!
  };
}

/** Type into the search box as the browser does: the value, the caret, an input event. */
function type(input: HTMLInputElement, value: string, caret = value.length) {
  act(() => {
    input.value = value;
    input.setSelectionRange(caret, caret);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('CasebookPanel over the demo casebook', () => {
  let book: ICasebook;
  let h: IHarness;

  beforeAll(async () => {
    book = await loadLocalCasebook(DEMO);
  });

  beforeEach(() => {
    h = harness(book);
  });

  afterEach(() => {
    flush(() => h.panel.dispose());
  });

  it('lists every case with its count, facets and Open button', () => {
    const total = book.cases.length;
    expect(total).toBeGreaterThanOrEqual(6);
    expect(h.rows().map(r => r.dataset.case)).toEqual(
      book.cases.map(c => c.name)
    );
    expect(h.panel.node.querySelector('.jp-Junobench-count')!.textContent).toBe(
      `${total} of ${total} cases`
    );
    expect(h.panel.node.querySelector('.jp-Junobench-title')!.textContent).toBe(
      book.name
    );
    expect(
      h.panel.node.querySelectorAll(
        '.jp-Junobench-facet[data-facet="library"] input[type=checkbox]'
      ).length
    ).toBeGreaterThan(1);
    const first = h.rows()[0];
    expect(
      first.querySelector('.jp-Junobench-open')!.getAttribute('aria-label')
    ).toBe(`Open case ${first.dataset.case}`);
    // Each row rendered once.
    expect([...h.renders.values()].every(n => n === 1)).toBe(true);
  });

  it('keeps the same search input, its focus and its caret while typing', () => {
    const input = h.search();
    input.focus();
    // The caret inside the text: writing the value back would move it to the end.
    type(input, 'numpy', 2);
    flush();
    expect(h.model.query.text).toBe('numpy');
    expect(h.rows().length).toBeGreaterThan(0);
    expect(h.rows().length).toBeLessThan(book.cases.length);
    expect(h.search()).toBe(input);
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('numpy');
    expect(input.selectionStart).toBe(2);

    type(input, 'numpy_1');
    flush();
    expect(h.rows().map(r => r.dataset.case)).toEqual(['numpy_1']);
    expect(document.activeElement).toBe(input);
  });

  it('writes a query changed elsewhere back into the search box', () => {
    type(h.search(), 'pandas');
    flush();
    const clear = h.panel.node.querySelector<HTMLButtonElement>(
      '.jp-Junobench-clear'
    )!;
    flush(() => clear.click());
    expect(h.search().value).toBe('');
    expect(h.rows()).toHaveLength(book.cases.length);
  });

  it('renders only the row whose status changed, and keeps every row element', () => {
    const before = h.rows();
    const rendered = new Map(h.renders);
    const [changed, other] = [before[1].dataset.case!, before[2].dataset.case!];

    h.setStatus(changed, 'crashed');

    const after = h.rows();
    expect(after).toHaveLength(before.length);
    after.forEach((row, i) => expect(row).toBe(before[i]));
    expect(h.renders.get(changed)).toBe(rendered.get(changed)! + 1);
    for (const [name, n] of rendered) {
      if (name !== changed) {
        expect([name, h.renders.get(name)]).toEqual([name, n]);
      }
    }
    const row = h.row(changed);
    expect(row.dataset.status).toBe('crashed');
    expect(row.querySelector('.jp-Junobench-badge')!.textContent).toBe(
      'crashed'
    );
    expect(h.row(other).dataset.status).toBe('not-started');
    // The status facet appears with the statuses counted.
    expect(
      h.panel.node.querySelector<HTMLElement>(
        '.jp-Junobench-facet[data-facet="status"]'
      )!.hidden
    ).toBe(false);
  });

  it('renders every row again on invalidate()', () => {
    const rendered = new Map(h.renders);
    flush(() => h.panel.model.invalidate());
    for (const [name, n] of rendered) {
      expect([name, h.renders.get(name)]).toEqual([name, n + 1]);
    }
  });

  it('keeps a focused row focused while its status, the others and the query change', () => {
    const name = h.rows()[3].dataset.case!;
    const row = h.row(name);
    flush(() => row.focus());
    expect(document.activeElement).toBe(row);

    h.setStatus(name, 'attempted');
    h.setStatus(h.rows()[0].dataset.case!, 'solved');
    // A search that keeps the row, but not every row before it.
    type(h.search(), name);
    flush();

    expect(h.rows().length).toBeLessThan(book.cases.length);
    expect(h.row(name)).toBe(row);
    expect(document.activeElement).toBe(row);
    expect(row.dataset.status).toBe('attempted');
  });

  it('moves between rows with the keyboard, keeps one row in the tab order, and opens with Enter', () => {
    const search = h.search();
    const rows = h.rows();
    flush(() => search.focus());

    expect(key(search, 'ArrowDown').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(rows[0]);
    key(rows[0], 'ArrowDown');
    expect(document.activeElement).toBe(rows[1]);
    key(rows[1], 'End');
    expect(document.activeElement).toBe(rows[rows.length - 1]);
    key(rows[rows.length - 1], 'Home');
    expect(document.activeElement).toBe(rows[0]);
    key(rows[0], 'ArrowDown');
    flush();
    // The focused row is the one in the tab order.
    const tabbable = h.rows().filter(r => r.tabIndex === 0);
    expect(tabbable).toEqual([rows[1]]);

    // Enter on the row opens its case (when it can be opened).
    const openable = book.cases.find(c => c.files.reproduced)!;
    const row = h.row(openable.name);
    flush(() => row.focus());
    expect(key(row, 'Enter').defaultPrevented).toBe(true);
    expect(h.opened).toEqual([openable.name]);

    // Up from the first row goes back to the search box.
    key(rows[0], 'ArrowUp');
    expect(document.activeElement).toBe(search);
  });

  it('sends `/` to the search box, except as a character typed in a text field', () => {
    const body = h.panel.node.querySelector<HTMLElement>('.jp-Junobench-body')!;
    flush(() => body.focus());
    expect(key(body, '/').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(h.search());
    expect(key(h.search(), '/').defaultPrevented).toBe(false);
  });

  it('narrows the list to a ticked facet value and counts it in the Filters line', () => {
    const box = h.panel.node.querySelector<HTMLInputElement>(
      '.jp-Junobench-facet[data-facet="library"] input[type=checkbox]'
    )!;
    const expected = h.model.facets.library[0];
    expect(expected.count).toBeLessThan(book.cases.length);
    flush(() => box.click());
    expect(box.checked).toBe(true);
    expect(h.model.query.library).toEqual([expected.value]);
    expect(h.rows()).toHaveLength(expected.count);
    expect(
      h.panel.node.querySelector('.jp-Junobench-filters > summary')!.textContent
    ).toBe('Filters (1 active)');
    flush(() => box.click());
    expect(box.checked).toBe(false);
    expect(h.rows()).toHaveLength(book.cases.length);
  });

  it('opens a case card, reads its README once, and keeps the focus on Details', async () => {
    const c = book.cases.find(x => x.files.readme)!;
    const toggle = () =>
      h.row(c.name).querySelector<HTMLButtonElement>('.jp-Junobench-details')!;
    const button = toggle();
    flush(() => button.focus());
    flush(() => button.click());
    const card = () => h.row(c.name).querySelector('.jp-Junobench-caseCard')!;
    expect(card().getAttribute('aria-label')).toBe(`Case ${c.name}`);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(card().querySelector('.jp-Junobench-caseAbout')!.textContent).toBe(
      'Reading the case’s README…'
    );
    // Closed and opened again (and rendered again) while the README is read.
    flush(() => button.click());
    expect(card()).toBeNull();
    flush(() => button.click());
    h.setStatus(c.name, 'crashed');
    await act(async () => {
      await Promise.resolve();
      MessageLoop.flush();
    });
    expect(card().querySelector('.jp-Junobench-caseAbout')!.textContent).toBe(
      `About ${c.name}.`
    );
    flush(() => button.click());
    flush(() => button.click());
    expect(h.described).toEqual([c.name]);
    expect(toggle()).toBe(button);
    expect(document.activeElement).toBe(button);
  });
});

describe('CasebookPanel paging', () => {
  const many = (n: number): ICasebook => ({
    name: 'many',
    root: 'many',
    cases: Array.from({ length: n }, (_, i) => caseRecord(`pandas_${i + 1}`)),
    problems: [],
    hasDiagnoses: false
  });

  it('renders a page of rows, one more per "Show more", and starts again on a new query', () => {
    const h = harness(many(2 * PAGE + 50));
    const more =
      h.panel.node.querySelector<HTMLButtonElement>('.jp-Junobench-more')!;
    expect(h.rows()).toHaveLength(PAGE);
    expect(more.hidden).toBe(false);
    flush(() => more.click());
    expect(h.rows()).toHaveLength(2 * PAGE);
    flush(() => more.click());
    expect(h.rows()).toHaveLength(2 * PAGE + 50);
    expect(more.hidden).toBe(true);
    // Rows already on screen were not rendered again by paging.
    expect(h.renders.get('pandas_1')).toBe(1);

    type(h.search(), 'pandas');
    flush();
    expect(h.rows()).toHaveLength(PAGE);
    flush(() => h.panel.dispose());
  });

  it('says why the list is empty', () => {
    const h = harness(many(3));
    type(h.search(), 'no such case');
    flush();
    expect(h.panel.node.querySelector('.jp-Junobench-empty')!.textContent).toBe(
      'No case matches the filters.'
    );
    flush(() => h.panel.dispose());
  });
});

describe('the case list keys', () => {
  it.each<[string, number, number, ListMove]>([
    ['ArrowDown', -1, 5, 0],
    ['ArrowDown', 0, 5, 1],
    ['ArrowDown', 4, 5, 4],
    ['ArrowUp', 3, 5, 2],
    ['ArrowUp', 0, 5, 'search'],
    ['ArrowUp', -1, 5, 'search'],
    ['Home', 3, 5, 0],
    ['End', 1, 5, 4],
    ['Enter', 1, 5, null],
    ['a', 1, 5, null],
    ['ArrowDown', -1, 0, null],
    ['End', -1, 0, null],
    ['ArrowUp', -1, 0, 'search']
  ])('%s at row %d of %d moves to %p', (name, index, count, expected) => {
    expect(listMove(name, index, count)).toEqual(expected);
  });

  it.each<[string[], string | null, string | null]>([
    [['a', 'b', 'c'], 'b', 'b'],
    [['a', 'b', 'c'], 'z', 'a'],
    [['a', 'b', 'c'], null, 'a'],
    [[], 'a', null]
  ])('in %p with %p current, %p is in the tab order', (names, current, row) => {
    expect(tabbableRow(names, current)).toBe(row);
  });

  it('counts the filters of the Filters box, not the text or "Runnable here"', () => {
    expect(
      activeFilterCount({ ...emptyQuery(), text: 'x', runnableOnly: true })
    ).toBe(0);
    expect(
      activeFilterCount({
        ...emptyQuery(),
        library: ['pandas', 'numpy'],
        status: ['solved'],
        notebookSpecificOnly: true
      })
    ).toBe(4);
  });
});
