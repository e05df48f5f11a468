import type { Collection } from '../products/collection';
import type { Disbursement } from '../products/disbursement';
import type { Remittance } from '../products/remittance';
import type { StatusLike } from '../schemas/common';
import type { TransactionStatus } from '../schemas/tolerant';
import type { CallbackEvent } from './parse';

/** What a product's status lookup resolves to (its public method's result). */
type Looked<P, M extends keyof P> = P[M] extends (...args: never[]) => Promise<infer R> ? R : never;
type D<M extends keyof Disbursement> = Looked<Disbursement, M>;
type C<M extends keyof Collection> = Looked<Collection, M>;
type R<M extends keyof Remittance> = Looked<Remittance, M>;

/**
 * Every operation a callback can be about, by the name `operation` carries, to what its
 * status lookup returns (`undefined`: the operation has none). The creating calls, and
 * the lookups (`waitForX(id)` on an id this process did not create knows only the
 * lookup). Written from the public product methods, so the declarations need no schema
 * types (`test/types/callbacks.test-d.ts` checks the results by operation).
 */
export interface CallbackOperations {
  'disbursement.transfer': D<'getTransfer'>;
  'disbursement.deposit': D<'getDeposit'>;
  'disbursement.refund': D<'getRefund'>;
  'disbursement.depositV2': D<'getDeposit'>;
  'disbursement.refundV2': D<'getRefund'>;
  'disbursement.transferWithConsent': D<'getTransfer'>;
  'disbursement.merchantPaymentWithConsent': D<'getMerchantPayment'>;
  'disbursement.getTransfer': D<'getTransfer'>;
  'disbursement.getDeposit': D<'getDeposit'>;
  'disbursement.getRefund': D<'getRefund'>;
  'disbursement.getMerchantPayment': D<'getMerchantPayment'>;
  'collection.requestToPay': C<'getRequestToPay'>;
  'collection.requestToWithdraw': C<'getRequestToWithdraw'>;
  'collection.requestToWithdrawV1': C<'getRequestToWithdraw'>;
  'collection.preApproval': C<'getPreApproval'>;
  'collection.createInvoice': C<'getInvoice'>;
  'collection.createPayment': C<'getPayment'>;
  'collection.getRequestToPay': C<'getRequestToPay'>;
  'collection.getRequestToWithdraw': C<'getRequestToWithdraw'>;
  'collection.getPreApproval': C<'getPreApproval'>;
  'collection.getInvoice': C<'getInvoice'>;
  'collection.getPayment': C<'getPayment'>;
  'collection.redeemVoucher': undefined;
  'collection.standardDisbursement': undefined;
  'collection.cancelInvoice': undefined;
  'remittance.transfer': R<'getTransfer'>;
  'remittance.cashTransfer': R<'getCashTransfer'>;
  'remittance.getTransfer': R<'getTransfer'>;
  'remittance.getCashTransfer': R<'getCashTransfer'>;
}

/** The operation names a callback event may carry. */
export type CallbackOperationName = keyof CallbackOperations;

/** What every event says, whatever its operation. */
interface CallbackEventFields {
  referenceId: string;
  /** The status the service's lookup gave; the callback's own for an operation without one. */
  status: TransactionStatus;
  /** The callback as received. */
  callback: CallbackEvent;
  /**
   * `true`: the outcome is trusted. A status lookup agreed (`verifiedBy: 'lookup'`), or,
   * for an operation the API gives no lookup, the callback URL carried the operation's
   * token (`verifiedBy: 'token'`, client option `callbackSecret`). `false`: an unverified
   * claim about an operation without a lookup: nothing was settled (the journal keeps it
   * pending); record it, do not act on it.
   */
  confirmed: boolean;
  /** How the outcome was verified; `undefined` when it was not (`confirmed: false`). */
  verifiedBy: 'lookup' | 'token' | undefined;
}

/** An event whose operation has a status lookup: `result` is what it returned. */
type EventOf<N extends CallbackOperationName> = CallbackEventFields & {
  /** The operation that created it (or the lookup that awaited it), as this process knows it. */
  operation: N;
  /**
   * The status lookup's result, typed by the operation; `undefined` for an operation
   * without a lookup (voucher redeem, standard-style disbursement, invoice cancellation).
   */
  result: CallbackOperations[N];
};

/**
 * What `onEvent` receives: one per operation and final status (replays are answered 200
 * and not passed on). Narrow on `operation` for the typed `result`:
 * `if (e.operation === 'collection.requestToPay') e.result.financialTransactionId`.
 * `operation` is `undefined` for an id only your `lookup` option knew; `result` is then
 * what that lookup returned.
 */
export type ConfirmedCallback =
  | { [N in CallbackOperationName]: EventOf<N> }[CallbackOperationName]
  | (CallbackEventFields & { operation: undefined; result: StatusLike });
