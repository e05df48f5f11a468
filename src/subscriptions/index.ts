// momo-partner-sdk/subscriptions: recurring collections under a mandate (docs/subscriptions.md).
export { Subscriptions } from './facade';
export { fileSubscriptionStore } from './file-store';
export { memorySubscriptionStore } from './memory-store';
export type { PlanInput, SubscribeInput } from './plan';
export type { ReportPeriod, SubscriptionsReport } from './report';
export type {
  RunDueOptions,
  RunDueReport,
  SubscriptionChargeEvent,
  SubscriptionRunner,
  SubscriptionRunnerOptions,
  SubscriptionsOptions,
} from './types';
