import type { ClientSurface } from '../client-surface';
import type { RequestOptions } from '../core/options';
import type { ReconcileFound } from './types';

/** One status lookup through the client's public method (its lookup budget applies). */
type Lookup = (
  momo: ClientSurface,
  referenceId: string,
  options: RequestOptions,
) => Promise<ReconcileFound>;

/**
 * Each creating operation with a status lookup, by its name as the journal records it,
 * to the public `getX` method that looks it up. Kept in step with the operation tables by
 * test/reconcile/operations.test.ts (every operation confirmed by a lookup is here, and
 * each entry sends that lookup's request). Callback-only operations (voucher redeem,
 * invoice cancellation, standard-style disbursement) have no status to reconcile against.
 */
export const RECONCILE_LOOKUPS: Readonly<Record<string, Lookup>> = {
  'disbursement.transfer': (momo, id, o) => momo.disbursement.getTransfer(id, o),
  'disbursement.transferWithConsent': (momo, id, o) => momo.disbursement.getTransfer(id, o),
  'disbursement.deposit': (momo, id, o) => momo.disbursement.getDeposit(id, o),
  'disbursement.depositV2': (momo, id, o) => momo.disbursement.getDeposit(id, o),
  'disbursement.refund': (momo, id, o) => momo.disbursement.getRefund(id, o),
  'disbursement.refundV2': (momo, id, o) => momo.disbursement.getRefund(id, o),
  'disbursement.merchantPaymentWithConsent': (momo, id, o) =>
    momo.disbursement.getMerchantPayment(id, o),
  'collection.requestToPay': (momo, id, o) => momo.collection.getRequestToPay(id, o),
  'collection.requestToWithdraw': (momo, id, o) => momo.collection.getRequestToWithdraw(id, o),
  'collection.requestToWithdrawV1': (momo, id, o) => momo.collection.getRequestToWithdraw(id, o),
  'collection.preApproval': (momo, id, o) => momo.collection.getPreApproval(id, o),
  'collection.createInvoice': (momo, id, o) => momo.collection.getInvoice(id, o),
  'collection.createPayment': (momo, id, o) => momo.collection.getPayment(id, o),
  'remittance.transfer': (momo, id, o) => momo.remittance.getTransfer(id, o),
  'remittance.cashTransfer': (momo, id, o) => momo.remittance.getCashTransfer(id, o),
};

const CALLBACK_ONLY = new Set([
  'collection.redeemVoucher',
  'collection.cancelInvoice',
  'collection.standardDisbursement',
]);

/** The lookup of `operation`, or why there is none (for a ValidationError). */
export function lookupFor(operation: string): Lookup | string {
  if (Object.hasOwn(RECONCILE_LOOKUPS, operation)) return RECONCILE_LOOKUPS[operation] as Lookup;
  if (CALLBACK_ONLY.has(operation)) {
    return 'has no status lookup (its outcome comes only by callback): it cannot be reconciled';
  }
  return `is not an operation with a status lookup (one of ${Object.keys(RECONCILE_LOOKUPS).join(', ')})`;
}
