import type * as z from 'zod/mini';
import type { ProductName } from './options';

/**
 * One endpoint, described the way the specification lists it. Product methods hand a
 * descriptor and their arguments to the transport; no method builds HTTP itself.
 */
export interface Operation<TBody = unknown, TResult = unknown> {
  /** `product.method`, used in errors and logs. */
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path with `{param}` placeholders, exactly as in the specification. */
  path: string;
  /** Whose subscription key, API user and token the call uses. */
  product: ProductName;
  /** `bearer`: API-user access token; `basic`: API user id and key; `consent`: the caller's consent token. */
  auth: 'bearer' | 'basic' | 'consent';
  /** Creating call: sends X-Reference-Id, retried under the same id. */
  creates?: boolean;
  /** Sends X-Callback-Url when one is configured. */
  callback?: boolean;
  /** Routing header; X-Target-Environment unless stated. */
  routing?: 'environment' | 'none';
  /** Request body schema (validated before sending). */
  body?: z.ZodMiniType<TBody>;
  /** Validators of path parameters, by placeholder name. */
  params?: Record<string, z.ZodMiniType<string>>;
  /** Response body schema (parsed tolerantly); absent when the body is ignored. */
  result?: z.ZodMiniType<TResult>;
}

export function defineOperation<TBody = never, TResult = undefined>(
  op: Operation<TBody, TResult>,
): Operation<TBody, TResult> {
  return op;
}
