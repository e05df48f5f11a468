import { findPaymentOperation, isCallbackOnly, paymentOperations } from '../catalogue/operations';
import type { ClientSurface, RequestOptions } from '../client-surface';
import type { ReconcileFound } from './types';

/** One status lookup through the client's public method (its lookup budget applies). */
type Lookup = (
  momo: ClientSurface,
  referenceId: string,
  options: RequestOptions,
) => Promise<ReconcileFound>;

/**
 * The lookup of `operation` (as the journal records it), from the kernel's catalogue of
 * payment operations, or why there is none (for a ValidationError). Callback-only
 * operations (voucher redeem, invoice cancellation, standard-style disbursement) have no
 * status to reconcile against.
 */
export function lookupFor(operation: string): Lookup | string {
  const op = findPaymentOperation(operation);
  if (op) return op.lookup as Lookup;
  if (isCallbackOnly(operation)) {
    return 'has no status lookup (its outcome comes only by callback): it cannot be reconciled';
  }
  const names = paymentOperations().map((o) => o.name);
  return `is not an operation with a status lookup (one of ${names.join(', ')})`;
}
