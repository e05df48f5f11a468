import type { Collection } from '../products/collection';
import type { Disbursement } from '../products/disbursement';
import type { LookupTraits } from '../products/endpoints';
import type { Remittance } from '../products/remittance';
import type { operationTables } from '../products/tables';
import type { StatusLike } from '../schemas/common';
import type { TransactionStatus } from '../schemas/tolerant';
import type { CallbackEvent } from './parse';

/** The public product a name's prefix names (consent's operations are never called back). */
interface CalledBackProducts {
  disbursement: Disbursement;
  collection: Collection;
  remittance: Remittance;
}
type Tables = Pick<typeof operationTables, keyof CalledBackProducts>;
type Rows = { [P in keyof Tables]: Tables[P][keyof Tables[P]] }[keyof Tables];

/** What the public method a lookup's full name (`product.getX`) names resolves to. */
type LookedUp<Name> = Name extends `${infer P extends keyof CalledBackProducts}.${infer M}`
  ? M extends keyof CalledBackProducts[P]
    ? CalledBackProducts[P][M] extends (...args: never[]) => Promise<infer R>
      ? R
      : never
    : never
  : never;

/** A row's callback entry: a creating call (by its confirming lookup), or a lookup itself. */
type EntryOf<Row> = Row extends { readonly name: infer N extends string; confirmedBy: infer C }
  ? { name: N; result: C extends { readonly name: infer L } ? LookedUp<L> : undefined }
  : Row extends LookupTraits<infer N>
    ? string extends N
      ? never
      : { name: N; result: LookedUp<N> }
    : never;
type Entries = EntryOf<Rows>;

/**
 * Every operation a callback can be about, by the name `operation` carries, to what its
 * status lookup returns (`undefined`: the operation has none). The creating calls, and
 * the lookups (`waitForX(id)` on an id this process did not create knows only the
 * lookup). Read from the operation tables' types (each creating row names its lookup,
 * each lookup row its own name), the results from the public product methods, so the
 * declarations need no schema types (`test/types/callbacks.test-d.ts` pins the map).
 */
export type CallbackOperations = {
  [N in Entries['name']]: Extract<Entries, { name: N }>['result'];
};

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
