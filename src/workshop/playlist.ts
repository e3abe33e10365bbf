/**
 * A workshop applied to a casebook: its cases in the workshop's order, and the
 * time left in its time box. Pure.
 */
import type { ICase, ICasebook } from '../casebook/types';
import type { IWorkshop } from './workshop';

/** The cases of a workshop found in a casebook. */
export interface IPlaylist {
  /** The casebook with only the workshop's cases, in the workshop's order. */
  readonly casebook: ICasebook;
  /** Workshop cases the casebook does not have, in the workshop's order. */
  readonly missing: readonly string[];
}

/**
 * Restrict a casebook to a workshop's cases, in the workshop's order; the
 * casebook's own load problems are kept.
 */
export function playlist(book: ICasebook, workshop: IWorkshop): IPlaylist {
  const byName = new Map<string, ICase>(book.cases.map(c => [c.name, c]));
  const cases: ICase[] = [];
  const missing: string[] = [];
  for (const name of workshop.cases) {
    const found = byName.get(name);
    if (found) {
      cases.push(found);
    } else {
      missing.push(name);
    }
  }
  return { casebook: { ...book, cases }, missing };
}

/** Where a time box stands at a given moment. */
export interface ITimeBox {
  /** When the time box ends, in milliseconds since the epoch. */
  readonly endsAt: number;
  /** Milliseconds left (0 once over). */
  readonly remainingMs: number;
  /** Whether the time is up. */
  readonly over: boolean;
}

/**
 * The time box of a workshop started at `startedAt` (ISO 8601), at `now`
 * (milliseconds since the epoch); null when the workshop has no time box or
 * the start date is unreadable.
 */
export function timeBox(
  startedAt: string,
  minutes: number | null,
  now: number
): ITimeBox | null {
  const start = Date.parse(startedAt);
  if (minutes === null || Number.isNaN(start)) {
    return null;
  }
  const endsAt = start + minutes * 60_000;
  const remainingMs = Math.max(0, endsAt - now);
  return { endsAt, remainingMs, over: remainingMs === 0 };
}

/**
 * Milliseconds as a countdown, rounded up to the second: `m:ss` under an hour,
 * `h:mm:ss` above (`12:05`, `1:02:03`, `0:00`).
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}`
    : `${minutes}:${ss}`;
}
