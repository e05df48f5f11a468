import { withoutTrailingSlashes } from '../core/url';
import type { Fault } from './types';

interface Armed {
  /** Names the fault for disarm(): the payer's phone page lists and removes faults by id. */
  readonly id: number;
  readonly fault: Fault;
  remaining: number;
}

/** One-shot faults, consumed in injection order by the requests they match. */
export class FaultQueue {
  private queue: Armed[] = [];
  private nextId = 1;

  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) {
      throw new TypeError('inject: times must be a positive integer');
    }
    if (fault.kind === 'status' && !isStatus(fault.status)) {
      throw new TypeError('inject: status must be an HTTP status from 200 to 599');
    }
    if (fault.kind === 'delay' && !(Number.isFinite(fault.ms) && fault.ms >= 0)) {
      throw new TypeError('inject: ms must be a finite number >= 0');
    }
    this.queue.push({ id: this.nextId++, fault, remaining: times });
  }

  /** The armed faults, in the order they are consumed. */
  list(): { id: number; fault: Fault; remaining: number }[] {
    return this.queue.map(({ id, fault, remaining }) => ({ id, fault: { ...fault }, remaining }));
  }

  /** Removes an armed fault; false when there is none with that id (consumed already). */
  disarm(id: number): boolean {
    const before = this.queue.length;
    this.queue = this.queue.filter((armed) => armed.id !== id);
    return this.queue.length < before;
  }

  /** The first armed fault matching this request, consumed once; undefined if none. */
  take(method: string, path: string): Fault | undefined {
    const index = this.queue.findIndex((armed) => matches(armed.fault.match, method, path));
    const armed = this.queue[index];
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining === 0) this.queue.splice(index, 1);
    return armed.fault;
  }

  reset(): void {
    this.queue = [];
  }
}

function isStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 200 && status <= 599;
}

/**
 * `undefined`: any request. `'POST /a/b'`: that method and a path at or under /a/b.
 * `'/a/b'`: any method, a path at or under /a/b.
 */
export function matches(match: string | undefined, method: string, path: string): boolean {
  if (match === undefined || match.trim() === '') return true;
  const [first, second] = match.trim().split(/\s+/, 2);
  const wantedMethod = second === undefined ? undefined : first?.toUpperCase();
  const prefix = withoutTrailingSlashes(second ?? first ?? '');
  if (wantedMethod !== undefined && wantedMethod !== method.toUpperCase()) return false;
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}
