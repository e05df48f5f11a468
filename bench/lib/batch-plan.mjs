/**
 * How much the batch section (sections/batch.mjs) measures; BENCH_QUICK shrinks each part.
 */
import { quick } from './config.mjs';

export const batchPlan = {
  capped: { rows: quick ? 1_000 : 2_000, cap: 100, lookupRate: 90, settleMs: 2_000 },
  concurrency: 64,
  streamRows: quick ? 10_000 : 100_000,
  storeRows: quick ? 1_000 : 5_000,
  storeRounds: quick ? 1 : 3,
};
