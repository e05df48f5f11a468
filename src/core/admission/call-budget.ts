import { SlidingWindowBudget } from './budget';
import type { OwnBudget } from './lane';

/**
 * Where a creating call carries a budget of its own besides the client's (internal): a
 * batch's `createRate`, given through the call's request options under this symbol (a
 * symbol: no public option, and copied by every spread of the options). The admission
 * stage queues such calls in a lane of their own that takes from both the call's budget
 * and its class's (the client's `createRate`, `rateBudget`, the pause after a 429), so a
 * batch is paced by the one stage, never by a second pacer (docs/assumptions.md, PC1).
 *
 * `Symbol.for`, not `Symbol()`: the drivers are bundled apart from the main entry
 * (scripts/entries.mjs), each with its own copy of this module, and the budget a driver
 * puts in the options must be found by the main entry's stage; a copy's `Symbol()` is
 * another key, and was (a batch's createRate went unapplied in the built package).
 */
export const CALL_BUDGET: unique symbol = Symbol.for('momo.callBudget');

/** Request options that may carry a call's own budget. */
export interface BudgetedOptions {
  [CALL_BUDGET]?: OwnBudget | undefined;
}

/**
 * The call's own budget in its request options, if any. Recognised by its shape, not by
 * `instanceof`: a driver's SlidingWindowBudget is its bundle's copy of the class.
 */
export function callBudgetOf(options: object | undefined): OwnBudget | undefined {
  const budget = (options as BudgetedOptions | undefined)?.[CALL_BUDGET];
  return typeof budget?.wait === 'function' ? budget : undefined;
}

/** Request options' part that paces a call by `rate` of its own: one budget per batch run. */
export function ownRate(rate: number): BudgetedOptions {
  return { [CALL_BUDGET]: new SlidingWindowBudget(rate) };
}
