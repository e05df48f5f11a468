import { ownRate } from '../core/admission/call-budget';

/**
 * The pacing of a driver's creating calls: the client's admission stage alone (its
 * `createRate`, `rateBudget` and the pause after a 429, one for the whole client). A
 * driver with a rate of its own (a batch's `createRate`) gives these request options to
 * each creating call: the stage then also keeps that run's calls within `rate` per
 * sliding second, in a queue of their own (docs/assumptions.md, PC1). No pacer here.
 */
export function pacedCalls(rate: number | undefined): object {
  return rate === undefined ? {} : ownRate(rate);
}
