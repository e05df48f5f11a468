import type { Lookup } from '../products/endpoints';
import type {
  collectionOperations,
  disbursementOperations,
  remittanceOperations,
} from '../products/tables';
import type { StatusLike } from '../schemas/common';
import type { TransactionStatus } from '../schemas/tolerant';
import type { CallbackEvent } from './parse';

type Disbursement = typeof disbursementOperations;
type Collection = typeof collectionOperations;
type Remittance = typeof remittanceOperations;

/** What a table row's status lookup returns; `undefined` for a callback-only operation. */
type LookupResultOf<Op> = Op extends { confirmedBy: Lookup<infer R> }
  ? R
  : Op extends Lookup<infer R>
    ? R
    : undefined;

/**
 * Every operation a callback can be about, by the name `operation` carries, to the row
 * of the operation tables that gives its result type: the creating calls, and the
 * lookups (`waitForX(id)` on an id this process did not create knows only the lookup).
 */
export interface CallbackOperations {
  'disbursement.transfer': Disbursement['transfer'];
  'disbursement.deposit': Disbursement['deposit'];
  'disbursement.refund': Disbursement['refund'];
  'disbursement.depositV2': Disbursement['depositV2'];
  'disbursement.refundV2': Disbursement['refundV2'];
  'disbursement.transferWithConsent': Disbursement['transferWithConsent'];
  'disbursement.merchantPaymentWithConsent': Disbursement['merchantPaymentWithConsent'];
  'disbursement.getTransfer': Disbursement['getTransfer'];
  'disbursement.getDeposit': Disbursement['getDeposit'];
  'disbursement.getRefund': Disbursement['getRefund'];
  'disbursement.getMerchantPayment': Disbursement['getMerchantPayment'];
  'collection.requestToPay': Collection['requestToPay'];
  'collection.requestToWithdraw': Collection['requestToWithdraw'];
  'collection.requestToWithdrawV1': Collection['requestToWithdrawV1'];
  'collection.preApproval': Collection['preApproval'];
  'collection.createInvoice': Collection['createInvoice'];
  'collection.createPayment': Collection['createPayment'];
  'collection.getRequestToPay': Collection['getRequestToPay'];
  'collection.getRequestToWithdraw': Collection['getRequestToWithdraw'];
  'collection.getPreApproval': Collection['getPreApproval'];
  'collection.getInvoice': Collection['getInvoice'];
  'collection.getPayment': Collection['getPayment'];
  'collection.redeemVoucher': Collection['redeemVoucher'];
  'collection.standardDisbursement': Collection['standardDisbursement'];
  'collection.cancelInvoice': Collection['cancelInvoice'];
  'remittance.transfer': Remittance['transfer'];
  'remittance.cashTransfer': Remittance['cashTransfer'];
  'remittance.getTransfer': Remittance['getTransfer'];
  'remittance.getCashTransfer': Remittance['getCashTransfer'];
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
  result: LookupResultOf<CallbackOperations[N]>;
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
