import type { ConformanceCase } from 'momo-partner-sdk/testing';
import { afterEach, beforeEach, it, vi } from 'vitest';

/**
 * The exported conformance cases as vitest tests, one `it` per case: what a partner
 * writes (`for (const c of batchStoreCases(make)) it(c.name, c.run)`). With `fakeDate`,
 * only `Date` is faked and `pass(ms)` moves it: for a store whose clock is `Date.now()`.
 */
export function itConforms(cases: ConformanceCase[], timeoutMs?: number): void {
  for (const one of cases) {
    it(
      one.name,
      async (ctx) => {
        try {
          await one.run();
        } catch (error) {
          // A case of an optional method the store has not: skipped, as checkCases reports it.
          if (error instanceof Error && error.name === 'NotApplicable') ctx.skip();
          else throw error;
        }
      },
      timeoutMs,
    );
  }
}

/** Fake `Date` around each test of this block; its `pass` option moves it. */
export function fakeDate(): { pass(ms: number): void } {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return { pass: (ms) => void vi.setSystemTime(Date.now() + ms) };
}
