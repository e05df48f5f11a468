import { SlidingWindowBudget } from './budget';

/**
 * Where a creating call carries a budget of its own besides the client's (internal): a
 * batch's `createRate`, given through the call's request options under this symbol (a
 * symbol: no public option, and copied by every spread of the options). The admission
 * stage queues such calls in a lane of their own that takes from both the call's budget
 * and its class's (the client's `createRate`, `rateBudget`, the pause after a 429), so a
 * batch is paced by the one stage, never by a second pacer (docs/assumptions.md, PC1).
 */
export const CALL_BUDGET: unique symbol = Symbol('momo.callBudget');

/** Request options that may carry a call's own budget. */
export interface BudgetedOptions {
  [CALL_BUDGET]?: SlidingWindowBudget | undefined;
}

/** The call's own budget in its request options, if any. */
export function callBudgetOf(options: unknown): SlidingWindowBudget | undefined {
  if (options === null || typeof options !== 'object') return undefined;
  const budget = (options as BudgetedOptions)[CALL_BUDGET];
  return budget instanceof SlidingWindowBudget ? budget : undefined;
}

/** Request options' part that paces a call by `rate` of its own: one budget per batch run. */
export function ownRate(rate: number): BudgetedOptions {
  return { [CALL_BUDGET]: new SlidingWindowBudget(rate) };
}
