import type { AccessToken } from '../auth/access-token';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import type { Final, WaitOptions } from '../polling/poller';
import {
  type AccountIdentifierType,
  type AccountStatus,
  accountIdentifier,
  deliveryNotificationBody,
  type Heartbeat,
  language,
  type RequestToPayBody,
  type RequestToWithdrawBody,
  requestToPayBody,
  type VoucherOtp,
  type VoucherRedeemBody,
  voucherOtp,
  voucherRedeemBody,
  voucherToken,
} from '../schemas/collection';
import { currency } from '../schemas/common';
import type { StandardDisbursementAccepted, StandardDisbursementBody } from '../schemas/standard';
import { type Balance, balance, type TransactionResult } from '../schemas/transactions';
import { validateInput } from '../schemas/validate';
import { creating, endpoint, lookup } from './endpoints';
import { ProductApi, referenceIdParam, type Submitted } from './product-api';
import { standardStyle } from './standard-style';

const product = 'collection';

/** Collection endpoints, as the specification lists them. */
const op = {
  ...standardStyle,
  requestToPay: creating(
    product,
    'requestToPay',
    'POST /collection/v1_0/requesttopay',
    requestToPayBody,
  ),
  requestToWithdraw: creating(
    product,
    'requestToWithdraw',
    'PUT /collection/v2_0/requesttowithdraw',
    requestToPayBody,
  ), // 4.10
  redeemVoucher: creating(
    product,
    'redeemVoucher',
    'POST /collection/v2_0/voucher/{voucherToken}/redeem',
    voucherRedeemBody,
    { params: { voucherToken } },
  ), // 4.12
  getRequestToPay: lookup(
    product,
    'getRequestToPay',
    'GET /collection/v1_0/requesttopay/{referenceId}',
  ),
  getRequestToWithdraw: lookup(
    product,
    'getRequestToWithdraw',
    'GET /collection/v1_0/requesttowithdraw/{referenceId}',
  ),
  sendDeliveryNotification: endpoint(
    product,
    'sendDeliveryNotification',
    'POST /collection/v1_0/requesttopay/{referenceId}/deliverynotification',
    { body: deliveryNotificationBody },
    {
      params: referenceIdParam,
      // 429 "occurs only after a successful attempt" (spec 4.14): on a retry it means delivered.
      landed: ({ status }) => status === 429,
    },
  ), // 4.14
  getVoucherOtp: endpoint(
    product,
    'getVoucherOtp',
    'GET /collection/v3_0/voucher/{voucherToken}/otp/cancel',
    { result: voucherOtp },
    { params: { voucherToken } },
  ), // 4.15
  getBalance: endpoint(product, 'getBalance', 'GET /collection/v1_0/account/balance', {
    result: balance,
  }),
  getBalanceInCurrency: endpoint(
    product,
    'getBalance',
    'GET /collection/v1_0/account/balance/{currency}',
    { result: balance },
    { params: { currency } },
  ), // 4.16
};

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
export class Collection {
  readonly #api: ProductApi;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#api = ProductApi.of(options, context);
  }

  /** POST /collection/v1_0/requesttopay: the payer is asked to approve. */
  requestToPay(body: RequestToPayBody, options?: RequestOptions): OperationPromise<Result> {
    return this.#api.create(op.requestToPay, op.getRequestToPay, body, options);
  }

  /** PUT /collection/v2_0/requesttowithdraw (cash-out; callback by PUT). */
  requestToWithdraw(
    body: RequestToWithdrawBody,
    options?: RequestOptions,
  ): OperationPromise<Result> {
    return this.#api.create(op.requestToWithdraw, op.getRequestToWithdraw, body, options);
  }

  /** GET /collection/v1_0/requesttopay/{referenceId}: one status lookup of a request to pay. */
  getRequestToPay(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getRequestToPay, referenceId, options);
  }

  /** GET /collection/v1_0/requesttowithdraw/{referenceId}: one status lookup of a request to withdraw. */
  getRequestToWithdraw(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getRequestToWithdraw, referenceId, options);
  }

  /** Looks a request to pay up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRequestToPay(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return this.#api.waitFor(op.getRequestToPay, referenceId, options);
  }

  /** Looks a request to withdraw up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForRequestToWithdraw(
    referenceId: string,
    options?: WaitOptions<Result>,
  ): Promise<Final<Result>> {
    return this.#api.waitFor(op.getRequestToWithdraw, referenceId, options);
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
    const { result: _, ...submitted } = await this.#api.submit(op.redeemVoucher, {
      params: { voucherToken: token },
      body,
      options,
    });
    return submitted;
  }

  /** GET /collection/v3_0/voucher/{voucherToken}/otp/cancel */
  getVoucherOtp(token: string, options?: RequestOptions): Promise<VoucherOtp> {
    return this.#api.send(op.getVoucherOtp, { params: { voucherToken: token }, options });
  }

  /**
   * POST /collection/v1_0/requesttopay/{referenceId}/deliverynotification. 404, 409
   * (not completed), 410 (too late) and 429 (already sent) are NotFoundError,
   * ConflictError, GoneError and RateLimitError.
   */
  async sendDeliveryNotification(
    referenceId: string,
    notificationMessage: string,
    options: DeliveryNotificationOptions = {},
  ): Promise<DeliveryNotificationResult> {
    const { language: lang, ...rest } = options ?? {};
    const headers =
      lang === undefined
        ? undefined
        : {
            Language: validateInput(
              language,
              lang,
              'options.language',
              op.sendDeliveryNotification.name,
            ),
          };
    const res = await this.#api.call(op.sendDeliveryNotification, {
      params: { referenceId },
      body: { notificationMessage },
      options: rest,
      ...(headers ? { headers } : {}),
    });
    return { referenceId, outcome: res.landedEarlier ? 'already-delivered' : 'enqueued' };
  }

  /** GET /collection/v1_0/account/balance, or …/balance/{currency} for one currency. */
  getBalance(currencyCode?: string, options?: RequestOptions): Promise<Balance>;
  getBalance(options?: RequestOptions): Promise<Balance>;
  getBalance(first?: string | RequestOptions, second?: RequestOptions): Promise<Balance> {
    if (typeof first === 'string') {
      return this.#api.send(op.getBalanceInCurrency, {
        params: { currency: first },
        options: second,
      });
    }
    return this.#api.send(op.getBalance, { options: first ?? second });
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
    return this.#api.send(op.getAccountStatus, { params, options });
  }

  /** GET /collection/v1.2/mm/Heartbeat */
  heartbeat(options?: RequestOptions): Promise<Heartbeat> {
    return this.#api.send(op.heartbeat, { options });
  }

  /**
   * POST /collection/v1.2/mm/Transactions/Type/Disbursement (standard-style; X-CorrelationID,
   * callback by PUT). Resolves on acceptance: the API has no status lookup for it.
   */
  async standardDisbursement(
    body: StandardDisbursementBody,
    options?: RequestOptions,
  ): Promise<StandardDisbursementAccepted> {
    const { referenceId, callbackUrl, result } = await this.#api.submit(op.standardDisbursement, {
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
    };
  }

  /** POST /collection/token/ (Basic), served from the shared cache unless `forceRefresh`. */
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<AccessToken> {
    return this.#api.accessToken(product, options);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Collection';
  }
}

/** The operation descriptors, for the journal to resume an operation by its lookup. */
export { op as collectionOperations };
