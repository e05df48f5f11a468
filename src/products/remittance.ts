import type { AccessToken } from '../auth/access-token';
import type { ConsentRequestOptions } from '../auth/consent-token';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import type { Final, WaitOptions } from '../polling/poller';
import {
  type CashTransferBody,
  type CashTransferResult,
  cashTransferBody,
  cashTransferResult,
  type UserInfo,
  userInfo,
} from '../schemas/remittance';
import { type TransactionResult, type TransferBody, transferBody } from '../schemas/transactions';
import { creating, endpoint, lookup } from './endpoints';
import { ProductApi } from './product-api';

const product = 'remittance';

/** Remittance endpoints, as the specification lists them. */
const op = {
  transfer: creating(product, 'transfer', 'POST /remittance/v1_0/transfer', transferBody), // 4.2
  cashTransfer: creating(
    product,
    'cashTransfer',
    'POST /remittance/v2_0/cashtransfer',
    cashTransferBody,
  ), // 4.8
  getTransfer: lookup(product, 'getTransfer', 'GET /remittance/v1_0/transfer/{referenceId}'),
  getCashTransfer: lookup(
    product,
    'getCashTransfer',
    'GET /remittance/v2_0/cashtransfer/{referenceId}',
    cashTransferResult,
  ),
  getUserInfo: endpoint(
    product,
    'getUserInfo',
    'GET /remittance/oauth2/v1_0/userinfo',
    { result: userInfo },
    { auth: 'consent' },
  ), // 4.20
};

type Result = TransactionResult;

/** Remittance: send money across borders, with or without payer identification. */
export class Remittance {
  readonly #api: ProductApi;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#api = ProductApi.of(options, context);
  }

  /** POST /remittance/v1_0/transfer */
  transfer(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return this.#api.create(op.transfer, op.getTransfer, body, options);
  }

  /** POST /remittance/v2_0/cashtransfer */
  cashTransfer(
    body: CashTransferBody,
    options?: RequestOptions,
  ): OperationPromise<CashTransferResult> {
    return this.#api.create(op.cashTransfer, op.getCashTransfer, body, options);
  }

  /** GET /remittance/v1_0/transfer/{referenceId}: one status lookup of a transfer. */
  getTransfer(referenceId: string, options?: RequestOptions): Promise<Result> {
    return this.#api.lookup(op.getTransfer, referenceId, options);
  }

  /** GET /remittance/v2_0/cashtransfer/{referenceId}: one status lookup of a cash transfer. */
  getCashTransfer(referenceId: string, options?: RequestOptions): Promise<CashTransferResult> {
    return this.#api.lookup(op.getCashTransfer, referenceId, options);
  }

  /** Looks a transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForTransfer(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return this.#api.waitFor(op.getTransfer, referenceId, options);
  }

  /** Looks a cash transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForCashTransfer(
    referenceId: string,
    options?: WaitOptions<CashTransferResult>,
  ): Promise<Final<CashTransferResult>> {
    return this.#api.waitFor(op.getCashTransfer, referenceId, options);
  }

  /** GET /remittance/oauth2/v1_0/userinfo with the account holder's consent token. */
  getUserInfo(options: ConsentRequestOptions): Promise<UserInfo> {
    return this.#api.send(op.getUserInfo, { options });
  }

  /** POST /remittance/token/ (Basic), served from the shared cache unless `forceRefresh`. */
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<AccessToken> {
    return this.#api.accessToken(product, options);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Remittance';
  }
}

/** The operation descriptors, for the journal to resume an operation by its lookup. */
export { op as remittanceOperations };
