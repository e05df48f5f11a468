import type { LazySchema } from '../schemas/lazy';
import type { ProductName } from './options';

/** What an error answer tells a retry: the fields read by the error factory. */
export interface AnswerFields {
  status: number;
  code: string | undefined;
}

/**
 * One endpoint, described the way the specification lists it. Product methods hand a
 * descriptor and their arguments to the transport; no method builds HTTP itself.
 */
export interface Operation<TBody = unknown, TResult = unknown> {
  /** `product.method`, used in errors and logs. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `{param}` placeholders, exactly as in the specification. */
  path: string;
  /** Whose subscription key, API user and token the call uses. */
  product: ProductName;
  /**
   * `bearer`: API-user access token; `basic`: API user id and key; `consent`: the caller's
   * consent token; `none`: no Authorization, only the subscription key (sandbox provisioning).
   */
  auth: 'bearer' | 'basic' | 'consent' | 'none';
  /**
   * Creating call: sends a client-generated id (X-Reference-Id, or X-CorrelationID on the
   * standard-style interface) and is retried under that same id.
   */
  creates?: boolean | 'correlation';
  /** Sends X-Callback-Url when one is configured. */
  callback?: boolean;
  /**
   * Routing header: X-Target-Environment (default), the standard-style
   * X-Account-Holding-Institution-Identifier, or none.
   */
  routing?: 'environment' | 'institution' | 'none';
  /**
   * Request body schema (validated before sending). Every schema here is a function
   * that builds it on first use: none is built when the package is imported.
   */
  body?: LazySchema<TBody>;
  /** `form`: application/x-www-form-urlencoded (spec 4.9, 4.21); JSON otherwise. */
  encoding?: 'json' | 'form';
  /** Validators of path parameters, by placeholder name. */
  params?: Record<string, LazySchema<string>>;
  /** Response body schema (parsed tolerantly); absent when the body is ignored. */
  result?: LazySchema<TResult>;
  /**
   * An error answer that, on a retry, proves an earlier attempt landed (and that is
   * never worth retrying). Creating calls default to 409 RESOURCE_ALREADY_EXIST.
   */
  landed?: (answer: AnswerFields) => boolean;
  /**
   * `false`: not held back by the client's in-flight limit. Only the API-user token
   * request: calls waiting for a token hold their slots, and single flight keeps at
   * most one token request per product in flight.
   */
  limited?: false;
}

export function defineOperation<TBody = never, TResult = undefined>(
  op: Operation<TBody, TResult>,
): Operation<TBody, TResult> {
  return op;
}

/** Spec 4.0/7.3: a duplicate X-Reference-Id is 409 RESOURCE_ALREADY_EXIST. */
export function duplicateReferenceId({ status, code }: AnswerFields): boolean {
  return status === 409 && (code === undefined || code === 'RESOURCE_ALREADY_EXIST');
}
