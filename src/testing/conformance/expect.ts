/**
 * The few assertions the conformance cases make, without a test framework: each throws a
 * ConformanceError saying what the contract expected and what the store gave.
 */

/** A broken promise of a store contract, found by a conformance case. */
export class ConformanceError extends Error {
  override name = 'ConformanceError';
}

/** Equal as data: objects by their defined fields (an absent field and `undefined` alike). */
export function same(actual: unknown, expected: unknown, what: string): void {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new ConformanceError(`${what}: expected ${e}, got ${a}`);
}

export function holds(condition: unknown, what: string): void {
  if (!condition) throw new ConformanceError(what);
}

/** The claim token a grant must be (a string), or a ConformanceError. */
export function granted(token: unknown, what: string): string {
  if (typeof token !== 'string' || token.length === 0) {
    throw new ConformanceError(`${what}: expected a token (a string), got ${canonical(token)}`);
  }
  return token;
}

export async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

/** JSON with sorted keys; `undefined` as the word (never a throw, whatever it is given). */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v instanceof Set) return [...v].sort();
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * How far past a lease or an expiry a case looks before it calls it lapsed: timers may
 * fire a little early, and a store may date on its server's clock.
 */
export const LAPSE_MARGIN_MS = 50;
