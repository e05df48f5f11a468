/**
 * Conformance suites for the store contracts (docs/conformance.md): a partner's own
 * journal, token store, batch store, outbox store or subscription store (DynamoDB, MySQL...) certified with
 * one call, in any test runner or none. The SDK's own stores run the same suites.
 */
export { type BatchStoreConformanceOptions, batchStoreCases, checkBatchStore } from './batch-store';
export {
  assertConforms,
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
} from './cases';
export { ConformanceError } from './expect';
export { checkJournal, type JournalConformanceOptions, journalCases } from './journal';
export { checkOutboxStore, type OutboxStoreUnderTest, outboxStoreCases } from './outbox-store';
export {
  checkSubscriptionStore,
  type SubscriptionStoreConformanceOptions,
  subscriptionStoreCases,
} from './subscription-store';
export { checkTokenStore, type TokenStoreConformanceOptions, tokenStoreCases } from './token-store';
