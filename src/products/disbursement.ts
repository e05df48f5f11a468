import type { AccessToken } from '../auth/access-token';
import type { ConsentRequestOptions } from '../auth/consent-token';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import type { Final, WaitOptions } from '../polling/poller';
import { msisdn } from '../schemas/common';
import {
  type Balance,
  type BasicUserInfo,
  balance,
  basicUserInfo,
  type ConsentPaymentBody,
  consentPaymentBody,
  type RefundBody,
  refundBody,
  type TransactionResult,
  type TransferBody,
  transferBody,
} from '../schemas/transactions';
import { creating, endpoint, lookup } from './endpoints';
import { ProductApi } from './product-api';

const product = 'disbursement';
const consent = { auth: 'consent' } as const;

/** Disbursement endpoints, as the specification lists them. */
const op = {
  transfer: creating(product, 'transfer', 'POST /disbursement/v1_0/transfer', transferBody),
  deposit: creating(product, 'deposit', 'POST /disbursement/v1_0/deposit', transferBody), // 4.5
  refund: creating(product, 'refund', 'POST /disbursement/v1_0/refund', refundBody), // 4.4
  transferWithConsent: creating(
    product,
    'transferWithConsent',
    'POST /disbursement/oauth2/v1_0/transfer',
    consentPaymentBody,
    consent,
  ), // 4.3
  merchantPaymentWithConsent: creating(
    product,
    'merchantPaymentWithConsent',
    'POST /disbursement/oauth2/v1_0/merchantpayment',
    consentPaymentBody,
    consent,
  ), // 4.13
  getTransfer: lookup(product, 'getTransfer', 'GET /disbursement/v1_0/transfer/{referenceId}'),
  getDeposit: lookup(product, 'getDeposit', 'GET /disbursement/v1_0/deposit/{referenceId}'),
  getRefund: lookup(product, 'getRefund', 'GET /disbursement/v1_0/refund/{referenceId}'),
  getMerchantPayment: lookup(
    product,
    'getMerchantPayment',
    'GET /disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/{referenceId}',
  ), // 4.1
  getBalance: endpoint(product, 'getBalance', 'GET /disbursement/v1_0/account/balance', {
    result: balance,
  }), // 4.19
  getBasicUserInfo: endpoint(
    product,
    'getBasicUserInfo',
    'GET /disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo',
    { result: basicUserInfo },
    { params: { msisdn } },
  ), // 4.18
};

type Result = TransactionResult;

/** Disbursement: pay out from the partner's account. */
export class Disbursement {
  readonly #api: ProductApi;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#api = ProductApi.of(options, context);
  }

  /** POST /disbursement/v1_0/transfer */
  transfer(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return this.#api.create(op.transfer, op.getTransfer, body, options);
  }

  /** POST /disbursement/v1_0/deposit (cash-in; callback by POST) */
  deposit(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return this.#api.create(op.deposit, op.getDeposit, body, options);
  }

  /** POST /disbursement/v1_0/refund (callback by POST) */
  refund(body: RefundBody, options?: RequestOptions): OperationPromise<Result> {
    return this.#api.create(op.refund, op.getRefund, body, options);
  }

  /** POST /disbursement/oauth2/v1_0/transfer with the account holder's consent token. */
  transferWithConsent(
    body: ConsentPaymentBody,
    options: ConsentRequestOptions,
  ): OperationPromise<Result> {
    return this.#api.create(op.transferWithConsent, op.getTransfer, body, options);
  }

  /** POST /disbursement/oauth2/v1_0/merchantpayment with the account holder's consent token. */
  merchantPaymentWithConsent(
    body: ConsentPaymentBody,
    options: ConsentRequestOptions,
  ): OperationPromise<Result> {
    return this.#api.create(op.merchantPaymentWithConsent, op.getMerchantPayment, body, options);
  }

  /** GET /disbursement/v1_0/transfer/{referenceId}: one status lookup of a transfer. */
  getTransfer(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getTransfer, referenceId, options);
  }

  /** GET /disbursement/v1_0/deposit/{referenceId}: one status lookup of a deposit. */
  getDeposit(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getDeposit, referenceId, options);
  }

  /** GET /disbursement/v1_0/refund/{referenceId}: one status lookup of a refund. */
  getRefund(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getRefund, referenceId, options);
  }

  /** GET /disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/{referenceId}: one status lookup of a merchant payment with consent. */
  getMerchantPayment(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getMerchantPayment, referenceId, options);
  }

  /** Looks a transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForTransfer(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return this.#api.waitFor(op.getTransfer, referenceId, options);
  }

  /** Looks a deposit up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForDeposit(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return this.#api.waitFor(op.getDeposit, referenceId, options);
  }

  /** Looks a refund up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRefund(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return this.#api.waitFor(op.getRefund, referenceId, options);
  }

  /** Looks a merchant payment up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForMerchantPayment(
    referenceId: string,
    options?: WaitOptions<Result>,
  ): Promise<Final<Result>> {
    return this.#api.waitFor(op.getMerchantPayment, referenceId, options);
  }

  /** GET /disbursement/v1_0/account/balance */
  getBalance(options?: RequestOptions): Promise<Balance> {
    return this.#api.send(op.getBalance, { options });
  }

  /** GET /disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo (no consent needed) */
  getBasicUserInfo(accountHolderMsisdn: string, options?: RequestOptions): Promise<BasicUserInfo> {
    return this.#api.send(op.getBasicUserInfo, {
      params: { msisdn: accountHolderMsisdn },
      options,
    });
  }

  /** POST /disbursement/token/ (Basic), served from the shared cache unless `forceRefresh`. */
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<AccessToken> {
    return this.#api.accessToken(product, options);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Disbursement';
  }
}

/** The operation descriptors, for the journal to resume an operation by its lookup. */
export { op as disbursementOperations };
