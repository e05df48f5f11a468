export { AccessToken } from './auth/access-token';
export type { ConsentRequest, ConsentWaitOptions } from './auth/consent-request';
export {
  type ConsentRequestOptions,
  ConsentToken,
  type ConsentTokenInit,
} from './auth/consent-token';
export type { ReleaseLock, StoredToken, TokenStore } from './auth/token-cache';
export { Batches } from './batches/batches';
export { fileBatchStore } from './batches/file-store';
export { memoryBatchStore } from './batches/memory-store';
export type { BatchOperation } from './batches/operations';
export type {
  BatchClaimToken,
  BatchHandle,
  BatchIntent,
  BatchOutcome,
  BatchRecord,
  BatchStore,
} from './batches/store';
export type {
  BatchItem,
  BatchItemStatus,
  BatchProgress,
  BatchReport,
  BatchReportItem,
  BatchRunOptions,
  BatchSummary,
} from './batches/types';
export { Callbacks } from './callbacks/callbacks';
export type {
  CallbackHandler,
  CallbackHandlerOptions,
  ConfirmedCallback,
} from './callbacks/handler';
export { type NodeListener, type NodeRequest, toNodeListener } from './callbacks/node';
export { type CallbackEvent, parseCallback } from './callbacks/parse';
export { MomoClient } from './client';
export type { Accepted, OperationPromise } from './core/operation-promise';
export type {
  ApiUser,
  ClientHooks,
  Compat,
  Logger,
  LogLevel,
  MomoClientOptions,
  PollingOptions,
  ProductName,
  ProductOptions,
  RequestInfo,
  RequestOptions,
  ResponseInfo,
  RetryInfo,
} from './core/options';
export type {
  AttemptTrace,
  CallbackStart,
  CallbackTrace,
  CallStart,
  CallTrace,
  Telemetry,
  WaitStart,
  WaitTrace,
} from './core/telemetry';
export * from './errors';
export type { Final, WaitOptions } from './polling/poller';
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
// scale-out (the Redis parts are in momo-partner-sdk/redis)
export type { CallbackBus, CallbackBusEvent } from './scale-out/callback-bus';
export type { ClientJournal, ResumeOptions, ResumeOutcome } from './scale-out/client-journal';
export type {
  ComponentState,
  ComponentStatus,
  SharedStateHealthReport,
} from './scale-out/health';
export {
  InMemoryJournal,
  type InMemoryJournalOptions,
  type Journal,
  type JournalEntry,
  type JournalOutcome,
  type JournalRecord,
} from './scale-out/journal';
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
