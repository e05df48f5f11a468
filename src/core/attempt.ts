import { ConnectionError, TimeoutError } from '../errors';
import { hostOf } from './business-refusal';
import type { Limiter } from './limiter';

export interface AttemptPlan {
  operation: string;
  referenceId: string | undefined;
  attempt: number;
  timeoutMs: number;
  /** The caller's signal: aborting it ends the attempt with its reason, as it is. */
  signal: AbortSignal | undefined;
}

/** Waits for an in-flight slot; resolves with the attempt's deadline, which the wait counts against. */
export function takeSlot(limiter: Limiter, plan: AttemptPlan): Promise<number> {
  const deadline = Date.now() + plan.timeoutMs;
  if (limiter.tryAcquire()) return Promise.resolve(deadline);
  const expired = () => timedOut(plan, 'waiting for a free request slot');
  return limiter.acquire(plan.signal, deadline, expired).then(() => deadline);
}

/**
 * What a sender's failure means for the caller: the caller's abort reason as it is, a
 * TimeoutError when the deadline passed (body included), a ConnectionError otherwise.
 */
export function sendFailure(error: unknown, plan: AttemptPlan, url: string): unknown {
  if (plan.signal?.aborted) return plan.signal.reason;
  if ((error as Error)?.name === 'TimeoutError') return timedOut(plan, 'no complete answer');
  return noResponse(error, plan, url);
}

function where(plan: AttemptPlan): string {
  const ref = plan.referenceId ? `, referenceId ${plan.referenceId}` : '';
  return `attempt ${plan.attempt}${ref}`;
}

function timedOut(plan: AttemptPlan, what: string): TimeoutError {
  return new TimeoutError(
    `${plan.operation}: ${what} within the ${plan.timeoutMs} ms attempt timeout (${where(plan)})`,
    { operation: plan.operation, referenceId: plan.referenceId },
  );
}

/**
 * A transport failure as a ConnectionError. The cause chain is kept (codes such as
 * ECONNREFUSED included) but rebuilt from names, messages and codes only, so that no
 * request object (and so no header) rides along.
 */
function noResponse(error: unknown, plan: AttemptPlan, url: string): ConnectionError {
  const cause = copyCause(error, 0);
  const code = findCode(cause);
  const detail = code ?? cause?.message ?? String(error);
  return new ConnectionError(
    `${plan.operation}: no response from ${hostOf(url) ?? 'the service'} (${detail}; ${where(plan)})`,
    { operation: plan.operation, referenceId: plan.referenceId, cause },
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
