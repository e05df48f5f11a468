/**
 * DESIGN 10.5 "a 429 pausing every worker's creating calls", counted at the provider (in
 * its own process): one creating call answered 429 with `Retry-After`, then every
 * creating call's arrival placed against that answer's. Nothing here times the test's
 * own side: the window is measured on the provider's arrivals.
 */
import { expect } from 'vitest';
import type { Arrival, ProviderProcess } from './provider-process';

/** The 429's Retry-After, in seconds. */
export const RETRY_AFTER_S = 4;
/**
 * Arrivals this soon after the 429 are tolerated: calls already on their way (in flight,
 * or sent under a reservation granted before the refused worker recorded the pause: at
 * most one per worker process). Far below the pause, so a pause held by the refused
 * worker alone (every other worker sending at the shared rate) fails the check.
 */
export const GRACE_MS = 1_000;

/** Waits until `busy` creating calls under `path` arrived, then arms a 429 on the next one. */
export async function refuseOneWhenBusy(
  provider: ProviderProcess,
  path: string,
  busy: number,
): Promise<number> {
  for (;;) {
    if ((await provider.arrivals(path)).length >= busy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { before } = await provider.inject({
    kind: 'status',
    status: 429,
    match: `POST ${path}`,
    headers: { 'retry-after': String(RETRY_AFTER_S) },
    body: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded.' },
  });
  return before;
}

/** What the provider saw around the 429 armed after `before` requests. */
export interface PauseWindow {
  refused: Arrival;
  /** Arrivals within the grace (calls already on their way). */
  early: number;
  /** Arrivals after the grace and before the pause's end: none, when every worker paused. */
  late: Arrival[];
  /** Arrivals after the pause's end (the workers went on). */
  after: number;
}

export async function pauseWindowOf(
  provider: ProviderProcess,
  path: string,
  before: number,
): Promise<PauseWindow> {
  const arrivals = await provider.arrivals(path);
  const refused = arrivals.find((a) => a.index >= before);
  if (!refused) throw new Error('no creating call arrived after the 429 was armed');
  const since = (a: Arrival) => a.at - refused.at;
  const following = arrivals.filter((a) => a.index > refused.index);
  const pauseMs = RETRY_AFTER_S * 1_000;
  return {
    refused,
    early: following.filter((a) => since(a) <= GRACE_MS).length,
    late: following.filter((a) => since(a) > GRACE_MS && since(a) < pauseMs),
    after: following.filter((a) => since(a) >= pauseMs).length,
  };
}

/** No creating call from any worker in the pause (past the grace), and the run went on after it. */
export function expectEveryWorkerPaused(window: PauseWindow, workers: number): void {
  expect(
    window.late.map((a) => `${a.key} +${a.at - window.refused.at} ms`),
    'creating calls that arrived during the pause',
  ).toEqual([]);
  // Calls on their way when the 429 went: in flight, one reservation per worker, a few more.
  expect(window.early).toBeLessThanOrEqual(workers * 4);
  expect(window.after).toBeGreaterThan(0);
}
