import type { Operation } from '../core/operation';
import type { ProductName } from '../core/options';
import { uuidV4 } from '../schemas/common';
import type { LazySchema } from '../schemas/lazy';
import type { OperationStatusLike as StatusLike } from '../schemas/tolerant';
import { type TransactionResult, transactionResult } from '../schemas/transactions';

/** `METHOD /path`, exactly as the specification (or the provider's document) lists it. */
type Route = `${Operation['method']} /${string}`;
type Extra = Omit<Partial<Operation>, 'body' | 'result'>;

/** A status lookup by reference id. */
export type Lookup<R = TransactionResult> = Operation<never, R>;
export type CallbackMethod = 'PUT' | 'POST';

/** How the outcome of a creating call is known: its status lookup, or only its callback. */
export type Confirmation<R extends StatusLike> =
  | { lookup: Lookup<R>; callback: CallbackMethod }
  | { callbackOnly: CallbackMethod };

/**
 * A creating call as its table declares it: the lookup that confirms it (what `wait()`,
 * the journal's `resume()` and a callback reaching any instance use), or `undefined`
 * when it is explicitly callback-only; and the method its callback arrives by.
 */
export interface CreatingOperation<
  TBody = unknown,
  R extends StatusLike = StatusLike,
  TResult = undefined,
> extends Operation<TBody, TResult> {
  creates: true | 'correlation';
  confirmedBy: Lookup<R> | undefined;
  callbackMethod: CallbackMethod;
}

/** A creating call with a confirming lookup. */
export interface ConfirmedOperation<TBody = unknown, R extends StatusLike = StatusLike>
  extends CreatingOperation<TBody, R> {
  confirmedBy: Lookup<R>;
}

/** Any row of an operation table. */
export type TableOperation = Operation<unknown, unknown> & {
  confirmedBy?: Lookup<StatusLike> | undefined;
  callbackMethod?: CallbackMethod;
};

/** Declares a creating call callback-only: the specification gives it no status lookup. */
export const callbackOnly = (callback: CallbackMethod) => ({ callbackOnly: callback }) as const;

export const referenceIdParam: { referenceId: LazySchema<string> } = { referenceId: uuidV4 };

/**
 * The operation tables are written one line per endpoint: the fields every endpoint of a
 * product repeats (product, bearer auth, `product.name`) are filled in here.
 */
export function endpoint<TBody = never, TResult = undefined>(
  product: ProductName,
  /** The method's name, prefixed with the product; a dotted name is taken as it is. */
  name: string,
  route: Route,
  schemas: { body?: LazySchema<TBody>; result?: LazySchema<TResult> },
  extra?: Extra,
): Operation<TBody, TResult> {
  const space = route.indexOf(' ');
  return {
    product,
    auth: 'bearer',
    name: name.includes('.') ? name : `${product}.${name}`,
    method: route.slice(0, space) as Operation['method'],
    path: route.slice(space + 1),
    ...schemas,
    ...extra,
  };
}

/**
 * What a table row's type says of a creating call besides its schemas: its full name and
 * how it is authorised, as literals, so that the lists of operations (`BatchOperation`,
 * the catalogue's names) are derived from the tables' types, never written out.
 */
export interface CreatingTraits<Name extends string, Auth> {
  readonly name: Name;
  readonly auth: Auth;
}
/**
 * What a status lookup's row says besides its schema: its full name as a literal, so that
 * the callback map (`CallbackOperations`) reads which lookup confirms which call from the
 * tables' types.
 */
export interface LookupTraits<Name extends string> {
  readonly name: Name;
  readonly params: typeof referenceIdParam;
}
/** `product.name`, or the name as it is when dotted (as `endpoint` builds it). */
type FullName<P extends string, N extends string> = N extends `${string}.${string}`
  ? N
  : `${P}.${N}`;
type AuthOf<X> = X extends { auth: infer A } ? A : 'bearer';

/**
 * A creating call (202): a client-generated X-Reference-Id, X-Callback-Url when
 * configured, and how its outcome is confirmed, declared here once.
 */
export function creating<
  TBody,
  R extends StatusLike,
  const P extends ProductName,
  const N extends string,
  const X extends Extra = Record<never, never>,
  const L extends string = string,
>(
  product: P,
  name: N,
  route: Route,
  body: LazySchema<TBody>,
  confirm: { lookup: Lookup<R> & { readonly name: L }; callback: CallbackMethod },
  extra?: X,
): ConfirmedOperation<TBody, R> &
  CreatingTraits<FullName<P, N>, AuthOf<X>> & { confirmedBy: { readonly name: L } };
export function creating<
  TBody,
  TResult = undefined,
  const P extends ProductName = ProductName,
  const N extends string = string,
>(
  product: P,
  name: N,
  route: Route,
  body: LazySchema<TBody>,
  confirm: { callbackOnly: CallbackMethod },
  extra?: Extra,
  result?: LazySchema<TResult>,
): CreatingOperation<TBody, StatusLike, TResult> &
  CreatingTraits<FullName<P, N>, Operation['auth']>;
export function creating<TBody>(
  product: ProductName,
  name: string,
  route: Route,
  body: LazySchema<TBody>,
  confirm: Confirmation<StatusLike>,
  extra?: Extra,
  result?: LazySchema<unknown>,
): CreatingOperation<TBody, StatusLike, unknown> {
  const op = endpoint(product, name, route, result ? { body, result } : { body }, {
    creates: true,
    callback: true,
    ...extra,
  });
  return {
    ...op,
    creates: op.creates === 'correlation' ? 'correlation' : true,
    confirmedBy: 'lookup' in confirm ? confirm.lookup : undefined,
    callbackMethod: 'lookup' in confirm ? confirm.callback : confirm.callbackOnly,
  };
}

/** A status lookup by reference id (`{referenceId}` in the path). */
export const lookup = <
  TResult extends StatusLike = TransactionResult,
  const P extends ProductName = ProductName,
  const N extends string = string,
>(
  product: P,
  name: N,
  route: Route,
  result: LazySchema<TResult> = transactionResult as never,
): Lookup<TResult> & LookupTraits<FullName<P, N>> =>
  endpoint(product, name, route, { result }, { params: referenceIdParam }) as Lookup<TResult> &
    LookupTraits<FullName<P, N>>;
