export { AccessToken } from './auth/access-token';
export type { ConsentRequest, ConsentWaitOptions } from './auth/consent-request';
export { ConsentToken, type ConsentTokenInit } from './auth/consent-token';
export type { ReleaseLock, StoredToken, TokenStore } from './auth/token-cache';
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
  ConsentRequestOptions,
  Logger,
  MomoClientOptions,
  PollingOptions,
  ProductName,
  ProductOptions,
  RequestOptions,
} from './core/options';
export * from './errors';
export type { Final, WaitOptions } from './polling/poller';
export {
  Collection,
  type DeliveryNotificationOptions,
  type DeliveryNotificationResult,
} from './products/collection';
export { Consent } from './products/consent';
export { Disbursement } from './products/disbursement';
export type { Submitted } from './products/product-api';
export { Remittance } from './products/remittance';
// scale-out (the Redis parts are in momo-partner-sdk/redis)
export type { CallbackBus, CallbackBusEvent } from './scale-out/callback-bus';
export type { ClientJournal, ResumeOptions, ResumeOutcome } from './scale-out/client-journal';
export {
  InMemoryJournal,
  type InMemoryJournalOptions,
  type Journal,
  type JournalEntry,
  type JournalOutcome,
  type JournalRecord,
} from './scale-out/journal';
export type {
  AccountIdentifierType,
  AccountStatus,
  Heartbeat,
  IdentificationType,
  RequestToPayBody,
  RequestToWithdrawBody,
  VoucherOtp,
  VoucherRedeemBody,
} from './schemas/collection';
export type { Party, Reason, StatusLike } from './schemas/common';
export type { AuthorizeInput } from './schemas/consent';
export type { CashTransferBody, CashTransferResult, UserInfo } from './schemas/remittance';
export type { StandardDisbursementAccepted, StandardDisbursementBody } from './schemas/standard';
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
