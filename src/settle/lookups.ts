import type { Operation } from '../core/operation';
import type { StatusLike } from '../schemas/common';

type Lookup = Operation<never, StatusLike>;

/**
 * What the lookups read of a client: its operations by name (the products' tables, which
 * lie above settle/, handed down by the client's context).
 */
export interface OperationsByName {
  readonly operationsByName: ReadonlyMap<string, { readonly confirmedBy?: unknown }>;
}

/**
 * The status lookup that confirms a creating operation, by its name as the journal
 * records it, read from the client's operation tables: what lets any instance, or a
 * restarted one, confirm and await an operation it did not create. `undefined` for an
 * operation its table declares callback-only (voucher redeem, standard-style
 * disbursement, invoice cancellation).
 */
export function lookupOf(ctx: OperationsByName, operation: string): Lookup | undefined {
  // An invoice's or a payment's CREATED is, like PENDING, not final to a wait or a handler.
  return ctx.operationsByName.get(operation)?.confirmedBy as Lookup | undefined;
}
