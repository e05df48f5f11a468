import { ConnectionError, isMomoError, type MomoError, TimeoutError } from '../errors';
import { readAnswer } from './answer';
import { hostOf } from './business-refusal';
import { answerContext, type CallPlan } from './call-plan';
import type { Config } from './config';
import type { Answer } from './port';

/** Errors of attempts that never left the client: they are no send, and no retry (./retry.ts). */
const unsent = new WeakSet<object>();

/** Whether an attempt failed with this error before its request left the client. */
export function leftTheClient(error: unknown): boolean {
  return !(typeof error === 'object' && error !== null && unsent.has(error));
}

/**
 * The error of an attempt still queued at the admission stage when its deadline passed
 * (`option`: the client option whose budget it was waiting for, if any). Its wait for a
 * slot or a rate counted; a pause the provider asked for did not.
 */
export function queueTimeout(
  plan: CallPlan<unknown>,
  n: number,
  option: string | undefined,
): TimeoutError {
  const within = option === undefined ? '' : ` within ${option}`;
  const error = timedOut(plan, n, `waiting for a free request slot${within}`);
  unsent.add(error);
  return error;
}

/**
 * The error of an attempt held by a pause the provider asked for (a 429's or a 503's
 * Retry-After) longer than the client waits out (`maxRetryAfterMs`): the provider's
 * answer that asked for it (its class, status and `retryAfterMs`), told as this call's.
 */
export function pausedTooLong(answerError: unknown, plan: CallPlan<unknown>, n: number): unknown {
  const what = 'held by a pause the provider asked for, longer than the client waits';
  const error = renamed(answerError, plan, n, what);
  if (error !== answerError) unsent.add(error as MomoError);
  return error;
}

/** The answer that asked for a pause too long to wait out, as the error of a call it held. */
export function pauseError(
  plan: CallPlan<unknown>,
  n: number,
  answer: Answer,
  config: Config,
): unknown {
  try {
    readAnswer(plan.op, answer, answerContext(plan, n), config);
    return queueTimeout(plan, n, undefined); // unreachable: a pause is asked by a 429 or a 5xx
  } catch (error) {
    return pausedTooLong(error, plan, n);
  }
}

/**
 * What a sender's failure means for the caller: the caller's abort reason as it is, a
 * TimeoutError when the deadline passed (body included), a ConnectionError otherwise.
 */
export function attemptError(error: unknown, plan: CallPlan<unknown>, n: number): unknown {
  if (plan.signal?.aborted) return plan.signal.reason;
  if ((error as Error)?.name === 'TimeoutError') return timedOut(plan, n, 'no complete answer');
  return noResponse(error, plan, n);
}

function where(plan: CallPlan<unknown>, n: number): string {
  const ref = plan.referenceId ? `, referenceId ${plan.referenceId}` : '';
  return `attempt ${n}${ref}`;
}

function timedOut(plan: CallPlan<unknown>, n: number, what: string): TimeoutError {
  const { op, timeoutMs, referenceId } = plan;
  return new TimeoutError(
    `${op.name}: ${what} within the ${timeoutMs} ms attempt timeout (${where(plan, n)})`,
    { operation: op.name, referenceId },
  );
}

/**
 * A transport failure as a ConnectionError. The cause chain is kept (codes such as
 * ECONNREFUSED included) but rebuilt from names, messages and codes only, so that no
 * request object (and so no header) rides along.
 */
function noResponse(error: unknown, plan: CallPlan<unknown>, n: number): ConnectionError {
  const { op, url, referenceId } = plan;
  const cause = copyCause(error, 0);
  const code = findCode(cause);
  const detail = code ?? cause?.message ?? String(error);
  return new ConnectionError(
    `${op.name}: no response from ${hostOf(url) ?? 'the service'} (${detail}; ${where(plan, n)})`,
    { operation: op.name, referenceId, cause },
  );
}

function copyCause(error: unknown, depth: number): (Error & { code?: string }) | undefined {
  if (error === undefined || error === null || depth > 4) return undefined;
  const original = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const inner = copyCause(original.cause, depth + 1);
  const copy: Error & { code?: string } = new Error(
    typeof original.message === 'string' ? original.message : String(error),
    inner ? { cause: inner } : undefined,
  );
  if (typeof original.name === 'string') copy.name = original.name;
  if (typeof original.code === 'string') copy.code = original.code;
  return copy;
}

function findCode(
  error: (Error & { code?: string; cause?: unknown }) | undefined,
): string | undefined {
  for (let e = error; e; e = e.cause as typeof error) if (e.code) return e.code;
  return undefined;
}

/**
 * A call's attempt whose token request failed, as an error of the call: the token
 * failure's own kind and fields (so `isConnectionError`, `isRateLimitError`, `status`,
 * `retryAfterMs` still hold, and the retry loop reads it the same), named by the call's
 * operation and reference id, the token failure as its `cause`. An abort reason, or
 * anything not the SDK's, passes as it is.
 */
export function tokenFailure(error: unknown, plan: CallPlan<unknown>, n: number): unknown {
  return renamed(error, plan, n, 'its access token request failed');
}

/**
 * A copy of an SDK error as the error of the call `plan` (`${operation}: ${what} (attempt
 * n...): ${its message}`, the call's operation and reference id): same prototype (and so
 * the same class, brand and guards) and fields, the original as `cause`, a stack from
 * here. Anything not the SDK's passes as it is.
 */
function renamed(error: unknown, plan: CallPlan<unknown>, n: number, what: string): unknown {
  if (!isMomoError(error)) return error;
  const { op, referenceId } = plan;
  const message = `${op.name}: ${what} (${where(plan, n)}): ${error.message}`;
  const copy = Object.create(
    Object.getPrototypeOf(error),
    Object.getOwnPropertyDescriptors(error),
  ) as MomoError;
  const hidden = (value: unknown) => ({ value, writable: true, configurable: true });
  const shown = (value: unknown) => ({ ...hidden(value), enumerable: true });
  const frames = (new Error().stack ?? '').split('\n').slice(1).join('\n');
  Object.defineProperties(copy, {
    message: hidden(message),
    cause: hidden(error),
    stack: hidden(`${error.name}: ${message}\n${frames}`),
    operation: shown(op.name),
    referenceId: shown(referenceId),
  });
  return copy;
}
