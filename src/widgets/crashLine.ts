/**
 * A CodeMirror extension that marks the line where a cell crashed.
 */
import { StateEffect, StateField } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';
import type { DecorationSet } from '@codemirror/view';

/** Set the crash line (1-based) or clear it (null). */
export const setCrashLine = StateEffect.define<number | null>();

const crashLineDecoration = Decoration.line({
  class: 'jp-Junobench-crashLine',
  attributes: { title: 'The crash happened on this line' }
});

const crashLineField = StateField.define<number | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setCrashLine)) {
        return effect.value;
      }
    }
    return value;
  },
  provide: field =>
    EditorView.decorations.compute([field, 'doc'], (state): DecorationSet => {
      const line = state.field(field);
      if (line === null || line < 1 || line > state.doc.lines) {
        return Decoration.none;
      }
      return Decoration.set([
        crashLineDecoration.range(state.doc.line(line).from)
      ]);
    })
});

/** The extension to inject once per editor. */
export const crashLineExtension: Extension = [crashLineField];

/**
 * Whether an editor state already carries the crash-line field.
 */
export function hasCrashLineField(view: EditorView): boolean {
  return view.state.field(crashLineField, false) !== undefined;
}
