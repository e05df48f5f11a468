import { isApiError, isConnectionError } from '../errors';
import { isBusinessRefusal } from './business-refusal';

/**
 * The one classification of failures: worth another try, because the same request may
 * succeed when sent again. Used by the retry loop, the poller behind `wait()` and the
 * consent wait alike.
 */
export function isTransient(error: unknown): boolean {
  if (isConnectionError(error)) return true; // TimeoutError included
  if (!isApiError(error)) return false;
  if (error.status >= 500 && isBusinessRefusal(error)) return false; // e.g. INVALID_CURRENCY sent as 500
  return isTransientStatus(error.status);
}

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
