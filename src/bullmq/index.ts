// momo-partner-sdk/bullmq: pay a list and run subscriptions as BullMQ jobs, with the
// guarantees of `Batches` (docs/engines.md). `bullmq` is an optional peer: nothing of it
// is loaded here; the partner's own Queue and Worker are given in.

export type { PaymentJobData, PaymentJobResult } from '../engines';
export {
  type AddPaymentsOptions,
  type AddPaymentsResult,
  addPayments,
  PAY_JOB,
  type PaymentProcessorOptions,
  paymentProcessor,
  paymentWorkerOptions,
  REJECT_JOB,
} from './payments';
export {
  SUBSCRIPTIONS_SCHEDULER,
  type SubscriptionJobs,
  type SubscriptionsLike,
  subscriptionJobs,
} from './subscriptions';
export type { BullJobLike, BullQueueLike } from './types';
