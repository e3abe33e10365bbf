/**
 * Caps on the outputs kept of one cell during a replay or a check, so a cell
 * that prints megabytes (or shows a table of ten thousand rows) cannot freeze
 * the page or fill the memory. Pure.
 */
import * as nbformat from '@jupyterlab/nbformat';

import { english, formatBytes } from '../i18n';
import type { Translate } from '../i18n';
import type { INbOutput } from './types';

/** Limits on what is kept of one cell's outputs, in characters. */
export interface IOutputLimits {
  /** Stream text (stdout and stderr together) kept per cell. */
  streamChars: number;
  /** Largest value of one MIME type of a rich output that is kept. */
  itemChars: number;
  /** Rich output (every MIME value together) kept per cell. */
  cellChars: number;
}

/** The limits used unless a caller gives others: about 1 MB of text per cell. */
export const DEFAULT_OUTPUT_LIMITS: Readonly<IOutputLimits> = {
  streamChars: 1_000_000,
  itemChars: 1_000_000,
  cellChars: 5_000_000
};

/**
 * Counts the outputs of one cell as they arrive and says what to keep of each.
 */
export class OutputCap {
  /** Start counting with the given limits; the note is worded by `__`. */
  constructor(
    limits: Readonly<IOutputLimits> = DEFAULT_OUTPUT_LIMITS,
    __: Translate = english
  ) {
    this._limits = limits;
    this._trans = __;
  }

  /** Characters not kept so far. */
  get dropped(): number {
    return this._dropped;
  }

  /**
   * The part of an output to keep, or null when none of it is kept. Errors are
   * always kept whole: they are what a replay is about.
   */
  take(output: INbOutput): INbOutput | null {
    if (nbformat.isStream(output)) {
      return this._takeStream(output);
    }
    if (nbformat.isDisplayData(output) || nbformat.isExecuteResult(output)) {
      return this._takeRich(output);
    }
    return output;
  }

  /** Start again: the cell cleared its output. */
  clear(): void {
    this._stream = 0;
    this._rich = 0;
    this._dropped = 0;
  }

  /** The note saying how much was not kept, or null when nothing was dropped. */
  note(): INbOutput | null {
    return this._dropped > 0
      ? truncationNote(this._dropped, this._trans)
      : null;
  }

  private _takeStream(output: nbformat.IStream): INbOutput | null {
    const text = Array.isArray(output.text)
      ? output.text.join('')
      : String(output.text ?? '');
    const room = Math.max(0, this._limits.streamChars - this._stream);
    if (text.length <= room) {
      this._stream += text.length;
      return output;
    }
    this._stream += room;
    this._dropped += text.length - room;
    return room > 0 ? { ...output, text: text.slice(0, room) } : null;
  }

  private _takeRich(
    output: nbformat.IDisplayData | nbformat.IExecuteResult
  ): INbOutput | null {
    const data: nbformat.IMimeBundle = output.data ?? {};
    const kept: nbformat.IMimeBundle = {};
    let any = false;
    for (const [mime, value] of Object.entries(data)) {
      const size = sizeOf(value);
      if (
        size > this._limits.itemChars ||
        this._rich + size > this._limits.cellChars
      ) {
        this._dropped += size;
        continue;
      }
      this._rich += size;
      kept[mime] = value;
      any = true;
    }
    if (!any && Object.keys(data).length > 0) {
      return null;
    }
    return Object.keys(kept).length === Object.keys(data).length
      ? output
      : { ...output, data: kept };
  }

  private _limits: Readonly<IOutputLimits>;
  private _trans: Translate;
  private _stream = 0;
  private _rich = 0;
  private _dropped = 0;
}

/**
 * The size of an output value in characters: a string's length, or the length
 * of other values as JSON.
 */
export function sizeOf(value: unknown): number {
  if (typeof value === 'string') {
    return value.length;
  }
  if (Array.isArray(value) && value.every(v => typeof v === 'string')) {
    return value.reduce((sum: number, v: string) => sum + v.length, 0);
  }
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * The stderr line that ends a truncated cell output, e.g. `[output truncated
 * by JunoBench: 46.7 MB not shown]` (worded by `__`; the size by
 * `formatBytes`, one character counted as one byte).
 */
export function truncationNote(
  dropped: number,
  __: Translate = english
): INbOutput {
  return {
    output_type: 'stream',
    name: 'stderr',
    text: `\n${__('[output truncated by JunoBench: %1 not shown]', formatBytes(dropped, __))}\n`
  };
}
