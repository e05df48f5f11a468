import type { Io } from './output';

/** How often a progress line is written when stderr is a file or a pipe (a log). */
export const LOG_INTERVAL_MS = 5_000;
/** How often the live line is redrawn on a terminal. */
const LIVE_INTERVAL_MS = 100;

/** Progress on stderr as a long run goes: `update` as often as wanted, `done` once. */
export interface Progress {
  update(text: string): void;
  done(text: string): void;
}

/**
 * On a terminal, one live line redrawn in place; otherwise a line every few seconds (the
 * first at once), so that a log stays readable. `quiet` (`--json`) writes nothing.
 */
export function progressOn(io: Io, quiet: boolean, now: () => number = Date.now): Progress {
  const live = io.errIsTTY === true;
  const interval = live ? LIVE_INTERVAL_MS : LOG_INTERVAL_MS;
  let last = Number.NEGATIVE_INFINITY;
  const write = (text: string, final: boolean) =>
    io.err(live ? `\r\u001b[2K${text}${final ? '\n' : ''}` : `${text}\n`);
  return {
    update(text) {
      if (quiet || now() - last < interval) return;
      last = now();
      write(text, false);
    },
    done(text) {
      if (!quiet) write(text, true);
    },
  };
}
