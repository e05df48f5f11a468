import {
  type FinalLike,
  findPaymentOperation,
  type PaymentOperation,
  paymentOperations,
} from '../payments/catalogue';
import type { BatchOperation } from './types';

export type { FinalLike };

/**
 * How a batch (and the outbox) runs one creating operation: the kernel's catalogue entry
 * (src/payments/catalogue.ts, derived from the operation tables).
 */
export type BatchOperationSpec = PaymentOperation;

/**
 * The operations a batch can run: every payment operation of the catalogue but those
 * sent with the payer's consent token (a list cannot hold one per payer). The written-out
 * `BatchOperation` union names the same operations (test/types/batches.test-d.ts).
 */
export function batchOperation(name: unknown): BatchOperationSpec | undefined {
  const op = findPaymentOperation(name);
  return op && !op.needsConsent ? op : undefined;
}

/** Every operation a batch can run, by name. */
export const batchOperations = (): Record<BatchOperation, BatchOperationSpec> =>
  Object.fromEntries(
    paymentOperations()
      .filter((op) => !op.needsConsent)
      .map((op) => [op.name, op]),
  ) as Record<BatchOperation, BatchOperationSpec>;
