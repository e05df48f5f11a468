import type { Final, WaitOptions } from '../contracts/wait';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import { inspectSymbol } from '../inspect';
import type { BasicInfoIdType } from '../schemas/accountholder';
import {
  type AccountIdentifierType,
  type AccountStatus,
  accountIdentifier,
  type Heartbeat,
  language,
  type RequestToPayBody,
  type RequestToWithdrawBody,
  type VoucherOtp,
  type VoucherRedeemBody,
} from '../schemas/collection';
import type { StandardDisbursementAccepted, StandardDisbursementBody } from '../schemas/standard';
import type { BasicUserInfo, TransactionResult } from '../schemas/transactions';
import { validateInput } from '../schemas/validate';
import { CollectionBilling } from './collection-billing';
import { fitsInHeader, spellIdentificationType } from './compat';
import type { Submitted } from './product-api';
import { apiOf, sendBasicUserInfoById } from './product-base';
import { collectionOperations as op } from './tables/collection';

type Result = TransactionResult;

/** What `sendDeliveryNotification` resolves to (the service answers 200 once it enqueued it). */
export interface DeliveryNotificationResult {
  referenceId: string;
  /**
   * `enqueued`: the service answered 200. `already-delivered`: a retry after an attempt
   * that got no answer met 429, which the service sends only after a successful attempt.
   */
  outcome: 'enqueued' | 'already-delivered';
}

export interface DeliveryNotificationOptions extends RequestOptions {
  /** Language header: ISO 639-1 or 639-3 code choosing the notification template. */
  language?: string;
}

/** Collection: get paid by consumers, vouchers, notifications and account queries. */
export class Collection extends CollectionBilling {
  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    super('collection', options, context);
  }

  /** POST /collection/v1_0/requesttopay: the payer is asked to approve. */
  requestToPay(body: RequestToPayBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.requestToPay, body, options);
  }

  /**
   * PUT /collection/v2_0/requesttowithdraw (cash-out; callback by PUT); by POST, the
   * provider documents' method, with `compat: 'provider'`.
   */
  requestToWithdraw(
    body: RequestToWithdrawBody,
    options?: RequestOptions,
  ): OperationPromise<Result> {
    const api = apiOf(this);
    const form =
      api.context.config.compat === 'provider' ? op.requestToWithdrawByPost : op.requestToWithdraw;
    return api.create(form, body, options);
  }

  /** POST /collection/v1_0/requesttowithdraw (callback by POST). */
  requestToWithdrawV1(
    body: RequestToWithdrawBody,
    options?: RequestOptions,
  ): OperationPromise<Result> {
    return apiOf(this).create(op.requestToWithdrawV1, body, options);
  }

  /** GET /collection/v1_0/requesttopay/{referenceId}: one status lookup of a request to pay. */
  getRequestToPay(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getRequestToPay, referenceId, options);
  }

  /** GET /collection/v1_0/requesttowithdraw/{referenceId}: one status lookup of a request to withdraw. */
  getRequestToWithdraw(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getRequestToWithdraw, referenceId, options);
  }

  /** Looks a request to pay up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRequestToPay(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getRequestToPay, referenceId, options);
  }

  /** Looks a request to withdraw up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRequestToWithdraw(
    referenceId: string,
    options?: WaitOptions<Result>,
  ): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getRequestToWithdraw, referenceId, options);
  }

  /**
   * POST /collection/v2_0/voucher/{voucherToken}/redeem (callback by PUT). The
   * API has no status lookup for it: the outcome arrives by callback.
   */
  async redeemVoucher(
    token: string,
    body: VoucherRedeemBody,
    options?: RequestOptions,
  ): Promise<Submitted> {
    const api = apiOf(this);
    const receiver = body?.receiver;
    const sent =
      receiver && typeof receiver === 'object'
        ? {
            ...body,
            receiver: spellIdentificationType(
              receiver,
              'identificationType',
              api.context.config.compat,
            ),
          }
        : body;
    const { result: _, ...submitted } = await api.submit(op.redeemVoucher, {
      params: { voucherToken: token },
      body: sent,
      options,
    });
    return submitted;
  }

  /** GET /collection/v3_0/voucher/{voucherToken}/otp/cancel */
  getVoucherOtp(token: string, options?: RequestOptions): Promise<VoucherOtp> {
    return apiOf(this).send(op.getVoucherOtp, { params: { voucherToken: token }, options });
  }

  /**
   * POST /collection/v1_0/requesttopay/{referenceId}/deliverynotification. 404, 409
   * (not completed), 410 (too late) and 429 (already sent) are NotFoundError,
   * ConflictError, GoneError and RateLimitError. The message goes in the body, and in a
   * `notificationMessage` header too when it fits in one (the provider's documents).
   */
  async sendDeliveryNotification(
    referenceId: string,
    notificationMessage: string,
    options: DeliveryNotificationOptions = {},
  ): Promise<DeliveryNotificationResult> {
    const { language: lang, ...rest } = options ?? {};
    const headers: Record<string, string> = {};
    if (lang !== undefined) {
      const name = op.sendDeliveryNotification.name;
      headers.Language = validateInput(language, lang, 'options.language', name);
    }
    if (fitsInHeader(notificationMessage)) headers.notificationMessage = notificationMessage;
    const res = await apiOf(this).call(op.sendDeliveryNotification, {
      params: { referenceId },
      body: { notificationMessage },
      options: rest,
      headers,
    });
    return { referenceId, outcome: res.landedEarlier ? 'already-delivered' : 'enqueued' };
  }

  /**
   * GET /collection/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo, or by another
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

  /** GET /collection/v1_2/mm/accounts/{identifierType}/{identifier}/status */
  async getAccountStatus(
    identifierType: AccountIdentifierType,
    identifier: string,
    options?: RequestOptions,
  ): Promise<AccountStatus> {
    const params = validateInput(
      accountIdentifier,
      { identifierType, identifier },
      '',
      op.getAccountStatus.name,
    );
    return apiOf(this).send(op.getAccountStatus, { params, options });
  }

  /** GET /collection/v1.2/mm/Heartbeat */
  heartbeat(options?: RequestOptions): Promise<Heartbeat> {
    return apiOf(this).send(op.heartbeat, { options });
  }

  /**
   * POST /collection/v1.2/mm/Transactions/Type/Disbursement (standard-style; X-CorrelationID,
   * callback by PUT). Resolves on acceptance: the API has no status lookup for it.
   */
  async standardDisbursement(
    body: StandardDisbursementBody,
    options?: RequestOptions,
  ): Promise<StandardDisbursementAccepted> {
    const { referenceId, callbackUrl, result } = await apiOf(this).submit(op.standardDisbursement, {
      body,
      options,
    });
    const answer = result.data ?? {};
    return {
      correlationId: referenceId,
      serverCorrelationId: answer.serverCorrelationId ?? referenceId,
      status: answer.status ?? 'pending',
      notificationMethod: answer.notificationMethod ?? (callbackUrl ? 'callback' : 'polling'),
      ...(callbackUrl ? { callbackUrl } : {}),
      landedEarlier: result.landedEarlier,
    };
  }

  [inspectSymbol](): string {
    return 'Collection';
  }
}
