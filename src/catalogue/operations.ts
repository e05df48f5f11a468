import type { ClientSurface } from '../client-surface';
import type { WaitOptions } from '../contracts/wait';
import type { RequestOptions } from '../core/options';
import type { TableOperation } from '../products/endpoints';
import { operationTables } from '../products/tables';
import type { LazySchema } from '../schemas/lazy';

/** The tables a list's operations come from (consent ones are never a list's). */
type ListTables = Pick<typeof operationTables, 'disbursement' | 'collection' | 'remittance'>;

/** A row's name when it is a payment operation: creating, with a status lookup. */
type PaymentName<Row> = Row extends { readonly name: infer N extends string; confirmedBy: infer C }
  ? undefined extends C // undefined: callback-only, no status lookup
    ? never
    : N
  : never;

/** Every payment operation's name, read from the tables' types (never written out). */
export type PaymentOperationName = {
  [P in keyof ListTables]: {
    [K in keyof ListTables[P]]: PaymentName<ListTables[P][K]>;
  }[keyof ListTables[P]];
}[keyof ListTables];

/** The names a list (a batch, the outbox, `payouts`' CSV) can run: those not sent with a consent token. */
export type ListOperationName = {
  [P in keyof ListTables]: {
    [K in keyof ListTables[P]]: ListTables[P][K] extends { readonly auth: 'consent' }
      ? never
      : PaymentName<ListTables[P][K]>;
  }[keyof ListTables[P]];
}[keyof ListTables];

/** What the list layer needs of a result (every creating call's result has these). */
export interface FinalLike {
  status: string;
  reason?: unknown;
  financialTransactionId?: string | undefined;
}

type Product = 'disbursement' | 'collection' | 'remittance';
/** The body field naming the counterparty of a payment, in the order they are looked for. */
export type PartyField = 'intendedPayer' | 'payer' | 'payee';
const PARTY_FIELDS: readonly PartyField[] = ['intendedPayer', 'payer', 'payee'];

/**
 * A payment operation of the catalogue: a creating call with a status lookup, run on the
 * client's public methods only (the method its table row names, and the `getX` / `waitForX`
 * of its lookup), so that every add-on goes through the client's own checks, retries,
 * admission and journal.
 */
export interface PaymentOperation {
  /** `product.method`, as the journal and the simulator name it. */
  readonly name: string;
  readonly product: Product;
  /** The body's schema, the one the method itself checks. */
  readonly body: LazySchema<unknown>;
  /** Sent with the payer's consent token: not something a list or an outbox can send. */
  readonly needsConsent: boolean;
  /** The body field naming the counterparty (an account-holder check looks at it), if any. */
  readonly party: PartyField | undefined;
  create(
    momo: ClientSurface,
    body: never,
    options: RequestOptions,
  ): Promise<{ referenceId: string }>;
  lookup(momo: ClientSurface, referenceId: string, options: RequestOptions): Promise<FinalLike>;
  wait(momo: ClientSurface, referenceId: string, options: WaitOptions<never>): Promise<FinalLike>;
}

type Method = (...args: unknown[]) => Promise<never>;
/** The public method `name` of `momo`'s `product`, bound to it. */
const method = (momo: ClientSurface, product: Product, name: string): Method => {
  const api = momo[product] as unknown as Record<string, Method>;
  return (api[name] as Method).bind(api);
};

const suffix = (name: string) => name.slice(name.indexOf('.') + 1);

function entryOf(op: TableOperation, lookupName: string): PaymentOperation {
  const product = op.product as Product;
  const create = suffix(op.name);
  const lookup = suffix(lookupName); // getTransfer...
  const wait = `waitFor${lookup.slice('get'.length)}`; // ...and waitForTransfer
  let party: PartyField | null | undefined;
  return {
    name: op.name,
    product,
    body: op.body as LazySchema<unknown>,
    needsConsent: op.auth === 'consent',
    get party() {
      party ??= partyOf(op.body as LazySchema<unknown>) ?? null;
      return party ?? undefined;
    },
    create: (momo, body, options) => method(momo, product, create)(body, options),
    lookup: (momo, id, options) => method(momo, product, lookup)(id, options),
    wait: (momo, id, options) => method(momo, product, wait)(id, options),
  };
}

/** The first counterparty field of an object body's schema (read once, when first asked). */
function partyOf(body: LazySchema<unknown>): PartyField | undefined {
  const shape = (body() as { _zod?: { def?: { shape?: object } } })._zod?.def?.shape ?? {};
  return PARTY_FIELDS.find((field) => field in shape);
}

/** Every creating operation, by name: its catalogue entry, or undefined when callback-only. */
function build(): Map<string, PaymentOperation | undefined> {
  const catalogue = new Map<string, PaymentOperation | undefined>();
  for (const table of [
    operationTables.disbursement,
    operationTables.collection,
    operationTables.remittance,
  ]) {
    for (const op of Object.values(table) as TableOperation[]) {
      if (op.creates !== true || catalogue.has(op.name)) continue;
      catalogue.set(op.name, op.confirmedBy && entryOf(op, op.confirmedBy.name));
    }
  }
  return catalogue;
}

let built: Map<string, PaymentOperation | undefined> | undefined;
/** The catalogue, built from the operation tables on first use. */
const catalogue = () => (built ??= build());

/** The payment operation `name`: a creating call with a status lookup, or undefined. */
export function findPaymentOperation(name: unknown): PaymentOperation | undefined {
  return typeof name === 'string' ? catalogue().get(name) : undefined;
}

/** Every payment operation (creating, with a status lookup), consent ones included. */
export const paymentOperations = (): PaymentOperation[] =>
  [...catalogue().values()].filter((op): op is PaymentOperation => op !== undefined);

/** Whether `name` is a creating operation whose outcome comes by callback only. */
export const isCallbackOnly = (name: string): boolean =>
  catalogue().has(name) && catalogue().get(name) === undefined;

/**
 * A payment operation a list (a batch, the outbox) can run: every one of the catalogue
 * but those sent with the payer's consent token (a list cannot hold one per payer).
 */
export function batchOperation(name: unknown): PaymentOperation | undefined {
  const op = findPaymentOperation(name);
  return op && !op.needsConsent ? op : undefined;
}

/** Every operation a list can run (`ListOperationName`), in the tables' order. */
export const listOperations = (): PaymentOperation[] =>
  paymentOperations().filter((op) => !op.needsConsent);
