import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';

/** The moments reserved in one window, oldest first (only the last 2 s or so are kept). */
type Window = number[];

/**
 * The earliest moment from `now` that keeps `window` under `perSecond`: after the last
 * one by the even spacing, and 1000 + `marginMs` after the Nth most recent.
 */
function earliest(window: Window, now: number, perSecond: number, marginMs: number): number {
  const n = Math.max(1, Math.floor(perSecond));
  let at = now;
  const last = window.at(-1);
  if (last !== undefined) at = Math.max(at, last + 1000 / perSecond);
  if (window.length >= n) at = Math.max(at, (window.at(-n) as number) + 1000 + marginMs);
  return at;
}

function prune(window: Window, now: number, marginMs: number): void {
  const horizon = now - 2000 - marginMs;
  let drop = 0;
  while (drop < window.length && (window[drop] as number) < horizon) drop += 1;
  if (drop > 0) window.splice(0, drop);
}

/**
 * A scoped `SharedRateBudget` for the processes' own tenants when there is no Redis or
 * PostgreSQL to share (one process): the same guarantees as theirs, on this process's
 * clock. `new Tenants({ shared: { rateBudget: memoryRateBudget() }, globalLimits })`.
 */
export function memoryRateBudget(): SharedRateBudget {
  const windows = new Map<string, Window>();
  const windowOf = (name: string): Window => {
    let window = windows.get(name);
    if (window === undefined) {
      window = [];
      windows.set(name, window);
    }
    return window;
  };
  return {
    scopes: true,
    reserve(kind: RateClass, perSecond: number, marginMs: number, scope?: RateScope) {
      const now = Date.now();
      const parts: [Window, number][] = [
        [windowOf(scope === undefined ? `plain:${kind}` : `key:${scope.id}:${kind}`), perSecond],
      ];
      if (scope?.totalPerSecond !== undefined) {
        parts.push([windowOf(`all:${kind}`), scope.totalPerSecond]);
      }
      let at = now;
      for (const [window, rate] of parts) {
        prune(window, now, marginMs);
        at = Math.max(at, earliest(window, now, rate, marginMs));
      }
      for (const [window] of parts) window.push(at);
      return Promise.resolve(at);
    },
  };
}
