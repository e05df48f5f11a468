import { json } from './http';
import type { RateLimitedKind, SimulatorLimits } from './types';

/** The sliding window every cap counts in. */
const WINDOW_MS = 1_000;

const FIELDS = { lookups: 'lookupsPerSecond', creates: 'createsPerSecond' } as const;

/** What is wrong with a `limits` option, naming its field; undefined when it is valid. */
export function limitsProblem(limits: unknown): { field: string; message: string } | undefined {
  if (limits === undefined) return undefined;
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
    return {
      field: 'limits',
      message: 'must be an object { lookupsPerSecond?, createsPerSecond? }',
    };
  }
  for (const [name, value] of Object.entries(limits)) {
    const field = `limits.${name}`;
    if (name !== FIELDS.lookups && name !== FIELDS.creates) {
      return { field, message: 'is not an option (lookupsPerSecond, createsPerSecond)' };
    }
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) {
      return { field, message: 'must be a positive integer (requests in any sliding second)' };
    }
  }
  return undefined;
}

/**
 * Which cap a request counts against: every GET is a lookup (status, balance, account
 * holder, user info...); every other request carrying `X-Reference-Id` is a creating call.
 */
export function limitedKind(method: string, headers: Headers): RateLimitedKind | undefined {
  if (method === 'GET') return 'lookups';
  const referenceId = headers.get('x-reference-id');
  return referenceId !== null && referenceId !== '' ? 'creates' : undefined;
}

/** Admitted times of one key and kind, oldest first. */
class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(private readonly cap: number) {}

  /** 0 when admitted (and counted); else the milliseconds until a slot frees. */
  take(now: number): number {
    while (this.head < this.times.length && now - (this.times[this.head] ?? now) >= WINDOW_MS) {
      this.head += 1;
    }
    if (this.head > 1_024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    if (this.times.length - this.head < this.cap) {
      this.times.push(now);
      return 0;
    }
    return (this.times[this.head] ?? now) + WINDOW_MS - now;
  }
}

/**
 * The provider's caps (`createSimulator({ limits })`): at most `lookupsPerSecond` lookups
 * and `createsPerSecond` creating calls in any sliding second, per subscription key, as the
 * provider's gateway counts a subscription. A refused request does not count.
 */
export class RateLimiter {
  private windows = new Map<string, SlidingWindow>();
  private counts = { lookups: 0, creates: 0 };

  /** Requests refused so far, by cap. */
  get refused(): { lookups: number; creates: number } {
    return { ...this.counts };
  }

  /**
   * Undefined when the request is admitted (and counted); else the 429 to answer with
   * `Retry-After` in seconds, in the route's error format (7.2 on the `/mm/` routes).
   * `limits`: the caps of the key's partner.
   */
  admit(
    key: string,
    kind: RateLimitedKind,
    now: number,
    standard: boolean,
    limits: SimulatorLimits,
  ): Response | undefined {
    const cap = limits[FIELDS[kind]];
    if (cap === undefined) return undefined;
    const id = `${kind} ${key}`;
    let window = this.windows.get(id);
    if (!window) {
      window = new SlidingWindow(cap);
      this.windows.set(id, window);
    }
    const waitMs = window.take(now);
    if (waitMs === 0) return undefined;
    this.counts[kind] += 1;
    const seconds = Math.max(1, Math.ceil(waitMs / 1_000));
    const what = kind === 'lookups' ? 'lookups (GET)' : 'creating calls';
    const message = `Rate limit exceeded: at most ${cap} ${what} per second. Try again in ${seconds} s.`;
    const headers = { 'retry-after': String(seconds) };
    return standard
      ? json(
          429,
          {
            errorCategory: 'BusinessRule',
            errorCode: 'RateLimitError',
            errorDescription: message,
            errorDateTime: new Date(now).toISOString(),
          },
          headers,
        )
      : json(429, { code: 'TOO_MANY_REQUESTS', message }, headers);
  }

  reset(): void {
    this.windows = new Map();
    this.counts = { lookups: 0, creates: 0 };
  }
}
