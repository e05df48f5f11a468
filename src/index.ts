export { AccessToken } from './auth/access-token';
export type { ConsentRequest, ConsentWaitOptions } from './auth/consent-request';
export {
  type ConsentRequestOptions,
  ConsentToken,
  type ConsentTokenInit,
} from './auth/consent-token';
export { Callbacks } from './callbacks/callbacks';
export type {
  CallbackHandler,
  CallbackHandlerOptions,
  ConfirmedCallback,
} from './callbacks/handler';
export { type NodeListener, type NodeRequest, toNodeListener } from './callbacks/node';
export { type CallbackEvent, parseCallback } from './callbacks/parse';
export { MomoClient } from './client';
// scale-out (the Redis parts are in momo-partner-sdk/redis)
export type { ClientJournal, ResumeOptions, ResumeOutcome } from './client-journal';
export type {
  BatchClaimToken,
  BatchHandle,
  BatchIntent,
  BatchOutcome,
  BatchRecord,
  BatchStore,
} from './contracts/batch-store';
// The public contracts: what a partner plugs in (journal, callback bus, token store,
// telemetry, logger, hooks) and what the client reports back (health).
export type { CallbackBus, CallbackBusEvent } from './contracts/callback-bus';
export {
  FailureReason,
  type FailureReasonCode,
  type FailureReasonInfo,
  failureReason,
} from './contracts/failure-reason';
export type {
  ComponentState,
  ComponentStatus,
  SharedStateHealthReport,
} from './contracts/health';
export type {
  ClientHooks,
  Logger,
  LogLevel,
  RequestInfo,
  ResponseInfo,
  RetryInfo,
} from './contracts/hooks';
export type { Journal, JournalEntry, JournalOutcome, JournalRecord } from './contracts/journal';
export type {
  OutboxClaim,
  OutboxIntent,
  OutboxLastError,
  OutboxListing,
  OutboxOutcome,
  OutboxPayment,
  OutboxSetback,
  OutboxStatus,
  OutboxStore,
} from './contracts/outbox-store';
export type { ProductName } from './contracts/product';
export type { RateClass, RateScope, SharedRateBudget } from './contracts/rate-budget';
export type {
  PlanInterval,
  StoredSubscription,
  Subscription,
  SubscriptionCharge,
  SubscriptionChargeStatus,
  SubscriptionFilter,
  SubscriptionMandate,
  SubscriptionPlan,
  SubscriptionStatus,
  SubscriptionStore,
} from './contracts/subscription-store';
export type {
  AttemptTrace,
  CallbackStart,
  CallbackTrace,
  CallStart,
  CallTrace,
  Telemetry,
  WaitStart,
  WaitTrace,
} from './contracts/telemetry';
export type { ReleaseLock, StoredToken, TokenStore } from './contracts/token-store';
export type { Final, WaitOptions } from './contracts/wait';
export type { Accepted, OperationPromise } from './core/operation-promise';
export type {
  ApiUser,
  Compat,
  MomoClientOptions,
  PollingOptions,
  ProductOptions,
  RequestOptions,
} from './core/options';
/** For store implementers: the key a reference id is stored and compared by (lower case). */
export { referenceKey } from './core/reference-id';
export * from './errors';
/** For store implementers: a claim's lease when none is configured (15 s). */
export { DEFAULT_LEASE_MS } from './payments/claims';
export {
  Collection,
  type DeliveryNotificationOptions,
  type DeliveryNotificationResult,
} from './products/collection';
export type { CancelledInvoice } from './products/collection-billing';
export { Consent } from './products/consent';
export { Disbursement } from './products/disbursement';
export type { Submitted } from './products/product-api';
export { Remittance } from './products/remittance';
export {
  type CreateUserOptions,
  SANDBOX_BASE_URL,
  Sandbox,
  type SandboxApiKey,
  type SandboxOptions,
  type SandboxRequestOptions,
} from './sandbox/sandbox';
export type { ActiveIdType, BasicInfoIdType } from './schemas/accountholder';
export type {
  AccountIdentifierType,
  AccountStatus,
  Heartbeat,
  IdentificationType,
  RequestToPayBody,
  RequestToWithdrawBody,
  VoucherOtp,
  VoucherReceiver,
  VoucherRedeemBody,
} from './schemas/collection';
export type {
  CancelInvoiceBody,
  InvoiceBody,
  InvoiceResult,
  PaymentBody,
  PaymentResult,
  PreApprovalBody,
  PreApprovalDetails,
  PreApprovalHolderIdType,
  PreApprovalResult,
} from './schemas/collection-v2';
export type { Party, PartyIdType } from './schemas/common';
export type { AuthorizeInput } from './schemas/consent';
export { type NormalizeMsisdnOptions, normalizeMsisdn } from './schemas/msisdn';
export type { CashTransferBody, CashTransferResult, UserInfo } from './schemas/remittance';
export type { SandboxUser, SandboxUserInput } from './schemas/sandbox';
export type {
  StandardDisbursementAccepted,
  StandardDisbursementBody,
  StandardPartyEntry,
} from './schemas/standard';
export type {
  OperationStatus,
  OperationStatusLike,
  Reason,
  ResultParty,
  StatusLike,
  Tolerant,
  TransactionStatus,
  UnknownFields,
} from './schemas/tolerant';
export type {
  Balance,
  BasicUserInfo,
  ConsentPaymentBody,
  DepositResult,
  MerchantPaymentResult,
  RefundBody,
  RefundResult,
  TransactionResult,
  TransferBody,
  TransferResult,
} from './schemas/transactions';
export { InMemoryJournal, type InMemoryJournalOptions } from './settle/journal';
