import type * as z from 'zod/mini';
import type { Operation } from '../core/operation';
import type { ProductName } from '../core/options';
import { transactionResult } from '../schemas/transactions';
import { referenceIdParam } from './product-api';

/** `METHOD /path`, exactly as the specification lists the endpoint. */
type Route = `${Operation['method']} /${string}`;
type Extra = Omit<Partial<Operation>, 'body' | 'result'>;

/**
 * The operation tables are written one line per endpoint: the fields every endpoint of a
 * product repeats (product, bearer auth, `product.name`) are filled in here.
 */
export function endpoint<TBody = never, TResult = undefined>(
  product: ProductName,
  /** The method's name, prefixed with the product; a dotted name is taken as it is. */
  name: string,
  route: Route,
  schemas: { body?: z.ZodMiniType<TBody>; result?: z.ZodMiniType<TResult> },
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

/** A creating call (202): a client-generated X-Reference-Id, X-Callback-Url when configured. */
export const creating = <TBody>(
  product: ProductName,
  name: string,
  route: Route,
  body: z.ZodMiniType<TBody>,
  extra?: Extra,
) => endpoint(product, name, route, { body }, { creates: true, callback: true, ...extra });

/** A status lookup by reference id (`{referenceId}` in the path). */
export const lookup = <TResult = z.infer<typeof transactionResult>>(
  product: ProductName,
  name: string,
  route: Route,
  result: z.ZodMiniType<TResult> = transactionResult as never,
) => endpoint(product, name, route, { result }, { params: referenceIdParam });
