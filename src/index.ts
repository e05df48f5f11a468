export { AccessToken } from './auth/access-token';
export { ConsentToken, type ConsentTokenInit } from './auth/consent-token';
export type { StoredToken, TokenStore } from './auth/token-cache';
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
export { Disbursement } from './products/disbursement';
export type { Party, Reason } from './schemas/common';
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
