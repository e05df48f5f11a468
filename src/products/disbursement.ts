import type { ConsentRequestOptions } from '../auth/consent-token';
import type { Final, WaitOptions } from '../contracts/wait';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import { inspectSymbol } from '../inspect';
import type { BasicInfoIdType } from '../schemas/accountholder';
import type {
  BasicUserInfo,
  ConsentPaymentBody,
  RefundBody,
  TransactionResult,
  TransferBody,
} from '../schemas/transactions';
import { apiOf, ProductBase, sendBasicUserInfoById } from './product-base';
import { disbursementOperations as op } from './tables/disbursement';

type Result = TransactionResult;

/** Disbursement: pay out from the partner's account. */
export class Disbursement extends ProductBase {
  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    super('disbursement', options, context);
  }

  /** POST /disbursement/v1_0/transfer */
  transfer(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.transfer, body, options);
  }

  /** POST /disbursement/v1_0/deposit (cash-in; callback by POST) */
  deposit(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.deposit, body, options);
  }

  /** POST /disbursement/v1_0/refund (callback by POST) */
  refund(body: RefundBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.refund, body, options);
  }

  /** POST /disbursement/v2_0/deposit (callback by PUT; looked up as a v1 deposit). */
  depositV2(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.depositV2, body, options);
  }

  /** POST /disbursement/v2_0/refund (callback by PUT; looked up as a v1 refund). */
  refundV2(body: RefundBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.refundV2, body, options);
  }

  /** POST /disbursement/oauth2/v1_0/transfer with the account holder's consent token. */
  transferWithConsent(
    body: ConsentPaymentBody,
    options: ConsentRequestOptions,
  ): OperationPromise<Result> {
    return apiOf(this).create(op.transferWithConsent, body, options);
  }

  /** POST /disbursement/oauth2/v1_0/merchantpayment with the account holder's consent token. */
  merchantPaymentWithConsent(
    body: ConsentPaymentBody,
    options: ConsentRequestOptions,
  ): OperationPromise<Result> {
    return apiOf(this).create(op.merchantPaymentWithConsent, body, options);
  }

  /** GET /disbursement/v1_0/transfer/{referenceId}: one status lookup of a transfer. */
  getTransfer(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getTransfer, referenceId, options);
  }

  /** GET /disbursement/v1_0/deposit/{referenceId}: one status lookup of a deposit. */
  getDeposit(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getDeposit, referenceId, options);
  }

  /** GET /disbursement/v1_0/refund/{referenceId}: one status lookup of a refund. */
  getRefund(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getRefund, referenceId, options);
  }

  /** GET /disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/{referenceId}: one status lookup of a merchant payment with consent. */
  getMerchantPayment(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getMerchantPayment, referenceId, options);
  }

  /** Looks a transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForTransfer(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getTransfer, referenceId, options);
  }

  /** Looks a deposit up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForDeposit(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getDeposit, referenceId, options);
  }

  /** Looks a refund up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRefund(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getRefund, referenceId, options);
  }

  /** Looks a merchant payment up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForMerchantPayment(
    referenceId: string,
    options?: WaitOptions<Result>,
  ): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getMerchantPayment, referenceId, options);
  }

  /**
   * GET /disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo, or by another
   * identity kind: …/accountholder/{idType}/{id}/basicuserinfo (no consent needed).
   */
  override getBasicUserInfo(msisdn: string, options?: RequestOptions): Promise<BasicUserInfo>;
  override getBasicUserInfo(
    idType: BasicInfoIdType,
    id: string,
    options?: RequestOptions,
  ): Promise<BasicUserInfo>;
  override getBasicUserInfo(
    first: string,
    second?: string | RequestOptions,
    third?: RequestOptions,
  ): Promise<BasicUserInfo> {
    if (typeof second !== 'string') return super.getBasicUserInfo(first, second);
    return sendBasicUserInfoById(this, op.getBasicUserInfoById, [first, second, third]);
  }

  [inspectSymbol](): string {
    return 'Disbursement';
  }
}
