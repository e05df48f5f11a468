import type { BatchProgress } from '../../batches/types';

const BAR_WIDTH = 24;

/** Rows that ended (a final status, or REJECTED/SKIPPED). */
const ended = (p: BatchProgress) => p.successful + p.failed + p.rejected + p.skipped;

/** Rows per second since `startedAt`, counting from `endedAtStart`, and the time left. */
function pace(p: BatchProgress, endedAtStart: number, elapsedMs: number) {
  const done = ended(p) - endedAtStart;
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const left = p.total - ended(p);
  const eta = rate > 0 ? `${formatDuration(left / rate)} left` : 'time left unknown';
  return { rate: `${rate.toFixed(1)} rows/s`, eta };
}

/** `1 h 02 min`, `3 min 05 s`, `12 s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

const counts = (p: BatchProgress) =>
  `successful ${p.successful}, failed ${p.failed}, pending ${p.pending}, rejected ${p.rejected}, skipped ${p.skipped}`;

/** The terminal's bar: `[#####-----] 120/300 successful 110, ... · 12.3 rows/s · 15 s left`. */
export function progressBar(p: BatchProgress, endedAtStart: number, elapsedMs: number): string {
  const share = p.total > 0 ? ended(p) / p.total : 1;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const { rate, eta } = pace(p, endedAtStart, elapsedMs);
  return `${bar} ${ended(p)}/${p.total} ${counts(p)} · ${rate} · ${eta}`;
}

/** A plain progress line (not a terminal): the same facts, one line. */
export function progressLine(p: BatchProgress, endedAtStart: number, elapsedMs: number): string {
  const { rate, eta } = pace(p, endedAtStart, elapsedMs);
  return `payouts: ${ended(p)}/${p.total} rows ended (${counts(p)}), ${rate}, ${eta}`;
}

/**
 * Shows the batch's progress on stderr: on a terminal a bar redrawn in place (`\r`), at
 * most 10 times a second; otherwise a plain line every `lineEveryMs` when the counts
 * changed. Nothing with `--json` (the caller passes no writer).
 */
export class ProgressView {
  readonly #write: ((text: string) => void) | undefined;
  readonly #tty: boolean;
  readonly #lineEveryMs: number;
  /** The terminal's width: a bar longer than a line would wrap, and `\r` not redraw it. */
  readonly #columns: number;
  readonly #startedAt = Date.now();
  #endedAtStart: number | undefined;
  #latest: BatchProgress | undefined;
  #shown: BatchProgress | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    write: ((text: string) => void) | undefined,
    terminal: { columns: number } | undefined,
    lineEveryMs = 5000,
  ) {
    this.#write = write;
    this.#tty = terminal !== undefined;
    this.#columns = terminal?.columns ?? 80;
    this.#lineEveryMs = lineEveryMs;
  }

  update(progress: BatchProgress): void {
    if (!this.#write) return;
    this.#endedAtStart ??= ended(progress);
    this.#latest = { ...progress };
    this.#timer ??= setInterval(() => this.#show(), this.#tty ? 100 : this.#lineEveryMs);
    this.#timer.unref();
  }

  /** The last counts shown, the bar's line ended. */
  finish(): void {
    clearInterval(this.#timer);
    this.#show();
    if (this.#tty && this.#shown) this.#write?.('\n');
  }

  #show(): void {
    const p = this.#latest;
    if (!p || !this.#write || p === this.#shown) return;
    this.#shown = p;
    const elapsed = Date.now() - this.#startedAt;
    const start = this.#endedAtStart ?? 0;
    const bar = () => progressBar(p, start, elapsed).slice(0, Math.max(20, this.#columns - 1));
    if (this.#tty) this.#write(`\r\x1b[2K${bar()}`);
    else this.#write(`${progressLine(p, start, elapsed)}\n`);
  }
}
