import {
  batchOperation,
  type FinalLike,
  listOperations,
  type PaymentOperation,
} from '../catalogue/operations';
import type { BatchOperation } from './types';

export type { FinalLike };

/**
 * How a batch (and the outbox) runs one creating operation: the kernel's catalogue entry
 * (src/catalogue/operations.ts, derived from the operation tables).
 */
export type BatchOperationSpec = PaymentOperation;

/**
 * The operations a batch can run: the kernel's `batchOperation` (every payment operation
 * of the catalogue but those sent with the payer's consent token); `BatchOperation` is
 * their names, read from the tables' types (test/types/operations.test-d.ts).
 */
export { batchOperation };

/** Every operation a batch can run, by name. */
export const batchOperations = (): Record<BatchOperation, BatchOperationSpec> =>
  Object.fromEntries(listOperations().map((op) => [op.name, op])) as Record<
    BatchOperation,
    BatchOperationSpec
  >;
