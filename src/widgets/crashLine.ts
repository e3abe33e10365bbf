/**
 * A CodeMirror extension that marks the line where a cell crashed.
 */
import { StateEffect, StateField } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';
import type { DecorationSet } from '@codemirror/view';

/** The crash line (1-based) and its tooltip, in the learner's language. */
export interface ICrashLine {
  line: number;
  title: string;
}

/** Set the crash line or clear it (null). */
export const setCrashLine = StateEffect.define<ICrashLine | null>();

const crashLineField = StateField.define<ICrashLine | null>({
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
      const crash = state.field(field);
      if (crash === null || crash.line < 1 || crash.line > state.doc.lines) {
        return Decoration.none;
      }
      return Decoration.set([
        Decoration.line({
          class: 'jp-Junobench-crashLine',
          attributes: { title: crash.title }
        }).range(state.doc.line(crash.line).from)
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
