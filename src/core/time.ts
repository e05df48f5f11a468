/** Timing helpers written once: the one abortable sleep, jitter, Retry-After. */
import { abortable } from './abortable';

/**
 * The SDK's one sleep (the client, the kernel and its drivers all wait with it), which
 * something else may end early: `done` resolves after `ms` or when `wake()` is called, and
 * rejects with the signal's reason (as is) on abort.
 */
export function wakeableSleep(
  ms: number,
  signal?: AbortSignal,
): { done: Promise<void>; wake: () => void } {
  let wake = () => {};
  const done = abortable<void>(signal, (resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
    return () => clearTimeout(timer);
  });
  return { done, wake: () => wake() };
}

/**
 * setTimeout as a promise that rejects with the signal's reason (as is) on abort. Written
 * apart from `wakeableSleep` (which only the drivers use) so that the main entry ships one.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable<void>(signal, (resolve) => {
    const timer = setTimeout(resolve, ms);
    return () => clearTimeout(timer);
  });
}

/** Resolves after `ms`, or at once when `signal` aborts: a wait that ends early, never fails. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch(() => undefined);
}

/** "Equal jitter": half of the step fixed, half random, so retries never bunch up. */
export function equalJitter(ms: number): number {
  return Math.round(ms / 2 + (Math.random() * ms) / 2);
}

/** Between 80% and 100% of the step, so that many waits do not poll in lockstep. */
export function spreadJitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.2));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
