/**
 * What the author types into the "Save as JunoBench Case…" form: each field
 * as typed, and the case details they make (trimmed, empty data lines
 * dropped). No DOM: the form renders it on `stateChanged`.
 */
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICaseDetails } from './authoringFlow';

/** A field of the form: a case detail, the data files as lines of text. */
export type CaseFormField = keyof ICaseDetails;

/**
 * The form's fields as typed.
 */
export class CaseFormModel implements IDisposable {
  /** Start from case details (a previous try, or a suggested name). */
  constructor(value: ICaseDetails) {
    this._text = { ...value, data: value.data.join('\n') };
  }

  /** Emitted when a field changes. */
  get stateChanged(): ISignal<this, void> {
    return this._stateChanged;
  }

  /** A field as typed. */
  text(field: CaseFormField): string {
    return this._text[field];
  }

  /** Whether the model is disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stop telling of changes. */
  dispose(): void {
    this._isDisposed = true;
    Signal.clearData(this);
  }

  /** The author types into a field. */
  set(field: CaseFormField, text: string): void {
    this._text = { ...this._text, [field]: text };
    this._stateChanged.emit();
  }

  /** The case details: the fields trimmed, one data file per non-empty line. */
  get value(): ICaseDetails {
    const trimmed = Object.fromEntries(
      Object.entries(this._text).map(([key, text]) => [key, text.trim()])
    ) as Record<CaseFormField, string>;
    return {
      ...trimmed,
      data: this._text.data
        .split('\n')
        .map(line => line.trim())
        .filter(line => line !== '')
    };
  }

  private _text: Record<CaseFormField, string>;
  private _isDisposed = false;
  private _stateChanged = new Signal<this, void>(this);
}
