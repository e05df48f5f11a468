/**
 * How much the subscriptions section (sections/subscriptions.mjs) measures. Part a's size is
 * BENCH_SUBS_CHARGES (default the 10,000: about 500 s under a 20/s create cap) and
 * part c's BENCH_SUBS_DUE_TOTAL (default 100,000); BENCH_QUICK shrinks both.
 */
import { quick } from './config.mjs';

const envInt = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const subscriptionsPlan = {
  capped: {
    charges: envInt('BENCH_SUBS_CHARGES', quick ? 1_000 : 10_000),
    createCap: 20,
    lookupCap: 100,
    createRate: 20,
    lookupRate: 100,
    settleMs: 500,
    concurrency: 200,
  },
  storeCharges: quick ? 200 : 1_000,
  dueTotal: envInt('BENCH_SUBS_DUE_TOTAL', quick ? 10_000 : 100_000),
  dueShare: 0.01,
  /** BENCH_SUBS_PARTS=a,b,c: the parts run (default all). */
  parts: (process.env.BENCH_SUBS_PARTS ?? 'a,b,c').split(',').map((p) => p.trim()),
};
