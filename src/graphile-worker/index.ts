/**
 * `momo-partner-sdk/graphile-worker`: payouts and collections as graphile-worker (0.17)
 * jobs on the partner's PostgreSQL, with `Batches`' guarantees (docs/engines.md):
 * `addPayments(workerUtils, { batch, items, secret })`, `paymentTasks(momo, { secret,
 * store })` for `run({ taskList })`, and `subscriptionTasks(subs)` (runDue as a cron
 * task). graphile-worker is the partner's own (an optional peer): nothing here imports it.
 */
export type { PaymentJobData, PaymentJobResult } from '../engines';
export { type AddedPayments, type AddPaymentsOptions, addPayments } from './add';
export { LOOKUP_TASK, PAY_TASK, SUBSCRIPTIONS_TASK, SWEEP_TASK } from './keys';
export {
  type SubscriptionsRunner,
  type SubscriptionTasks,
  type SubscriptionTasksOptions,
  subscriptionTasks,
} from './subscriptions';
export { type PaymentTasksOptions, paymentTasks } from './tasks';
export type {
  GraphileJobHelpers,
  GraphileTask,
  GraphileTaskList,
  GraphileWorkerUtils,
} from './types';
