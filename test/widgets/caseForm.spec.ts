/**
 * The "Save as JunoBench Case" form: the casebook's label sets offered, free
 * entry kept, values trimmed, notes listed.
 */
import { nullTranslator } from '@jupyterlab/translation';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import { CaseForm, linesBody } from '../../src/widgets/caseForm';

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

/** Type into a field as the browser does: its value, then an input event. */
function type(field: HTMLInputElement | HTMLTextAreaElement, text: string) {
  const setter = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(field),
    'value'
  )!.set!;
  act(() => {
    setter.call(field, text);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    MessageLoop.flush();
  });
}

describe('CaseForm', () => {
  const trans = nullTranslator.load('jupyterlab_junobench');
  const labels = {
    rootCause: ['API misuse', 'NB specific'],
    crashType: ['variable not found'],
    pipelineStage: ['training'],
    mlBug: ['ML bug'],
    library: ['pandas']
  };

  it('offers each label set as choices and keeps free entry', () => {
    const form = new CaseForm({
      trans,
      labels,
      value: CaseForm.emptyValue('NBspecific_4'),
      notes: ['Inputs 5 ran after the crash and are left out.']
    });
    act(() => {
      Widget.attach(form, document.body);
      MessageLoop.flush();
    });
    const node = form.node;
    const root = node.querySelector<HTMLInputElement>('[name="rootCause"]')!;
    const list = node.querySelector<HTMLDataListElement>(
      `#${root.getAttribute('list')}`
    )!;
    expect([...list.options].map(o => o.value)).toEqual(labels.rootCause);
    expect(node.querySelector('[name="name"]')).toHaveProperty(
      'value',
      'NBspecific_4'
    );
    expect(node.querySelector('ul')?.textContent).toContain('left out');

    type(root, '  a cause of my own  ');
    type(
      node.querySelector<HTMLTextAreaElement>('[name="data"]')!,
      'data/a.csv\n\n  b.txt \n'
    );
    // The field shows what was typed, untrimmed.
    expect(root.value).toBe('  a cause of my own  ');
    const value = form.getValue();
    expect(value.rootCause).toBe('a cause of my own');
    expect(value.data).toEqual(['data/a.csv', 'b.txt']);
    expect(value.name).toBe('NBspecific_4');
    act(() => form.dispose());
  });

  it('shows result lines as text, never as markup', () => {
    const body = linesBody(['<b>bold</b>', 'second']);
    expect(body.node.querySelectorAll('p')).toHaveLength(2);
    expect(body.node.querySelector('b')).toBeNull();
    expect(body.node.textContent).toContain('<b>bold</b>');
    body.dispose();
  });
});
