import { isTransient } from '../core/transient';
import { ConsentDeniedError, ConsentExpiredError, isApiError, WaitTimeoutError } from '../errors';
import type { ConsentToken } from './consent-token';

/** CIBA's default polling interval, used when the service sends none. */
const DEFAULT_INTERVAL_SECONDS = 5;
/** CIBA: after `slow_down` the client adds 5 seconds to its interval for good. */
const SLOW_DOWN_SECONDS = 5;

/** Options of `consentRequest.wait()`. */
export interface ConsentWaitOptions {
  /** Give up earlier than `expires_in` (throws WaitTimeoutError). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called after each token poll the account holder has not answered yet. */
  onPending?(info: { polls: number; intervalSeconds: number }): void;
}

/** A backchannel (CIBA) consent request awaiting the account holder's answer. */
export interface ConsentRequest {
  readonly authReqId: string;
  /** Seconds to wait between token polls, as the service asked. */
  readonly interval: number;
  /** Seconds until `authReqId` expires. */
  readonly expiresIn: number;
  /** When `authReqId` expires. */
  readonly expiresAt: Date;
  /**
   * Polls the consent token endpoint no faster than `interval` until the account holder
   * answers: resolves with the ConsentToken, or throws ConsentDeniedError /
   * ConsentExpiredError.
   */
  wait(options?: ConsentWaitOptions): Promise<ConsentToken>;
}

export interface ConsentPolling {
  authReqId: string;
  interval: number | undefined;
  expiresIn: number | undefined;
  /** Used when the service sends no `expires_in`. */
  defaultExpiresIn: number;
  receivedAt: number;
  getToken(signal: AbortSignal | undefined): Promise<ConsentToken>;
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

const OPERATION = 'consent.wait';

export function consentRequest(polling: ConsentPolling): ConsentRequest {
  const interval =
    polling.interval !== undefined && polling.interval > 0
      ? polling.interval
      : DEFAULT_INTERVAL_SECONDS;
  const expiresIn =
    polling.expiresIn !== undefined && polling.expiresIn > 0
      ? polling.expiresIn
      : polling.defaultExpiresIn;
  const expiresAt = polling.receivedAt + expiresIn * 1000;
  return {
    authReqId: polling.authReqId,
    interval,
    expiresIn,
    expiresAt: new Date(expiresAt),
    wait: (options = {}) => waitForConsent(polling, interval, expiresAt, options),
  };
}

async function waitForConsent(
  polling: ConsentPolling,
  startInterval: number,
  expiresAt: number,
  options: ConsentWaitOptions,
): Promise<ConsentToken> {
  const { authReqId } = polling;
  const context = { operation: OPERATION, referenceId: authReqId };
  const timeoutAt = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  let intervalSeconds = startInterval;
  let lastPollAt = polling.receivedAt;
  for (let polls = 0; ; ) {
    const nextAt = lastPollAt + intervalSeconds * 1000;
    if (nextAt >= expiresAt) {
      throw new ConsentExpiredError(
        `${OPERATION}: the consent request expired before the account holder answered (auth_req_id ${authReqId})`,
        context,
      );
    }
    if (nextAt > timeoutAt) {
      throw new WaitTimeoutError({
        ...context,
        lastStatus: 'authorization_pending',
        timeoutMs: options.timeoutMs ?? 0,
      });
    }
    await polling.sleep(Math.max(0, nextAt - Date.now()), options.signal);
    polls++;
    try {
      return await polling.getToken(options.signal);
    } catch (error) {
      // Counted from the answer, not the request: however the network delays requests,
      // the service never sees two polls closer than `interval`.
      lastPollAt = Date.now();
      if (options.signal?.aborted) throw options.signal.reason;
      const code = isApiError(error) ? error.code : undefined;
      if (code === 'slow_down') intervalSeconds += SLOW_DOWN_SECONDS;
      const keepWaiting =
        code === 'authorization_pending' ||
        code === 'slow_down' ||
        // The token endpoint failing for a moment does not end the consent request.
        isTransient(error);
      if (!keepWaiting) throw error;
      options.onPending?.({ polls, intervalSeconds });
    }
  }
}

/** The CIBA error codes of the token endpoint, as the SDK's typed consent errors (named by auth_req_id). */
export function consentError(error: unknown, authReqId: string): unknown {
  if (!isApiError(error)) return error;
  const context = { operation: error.operation, referenceId: authReqId, cause: error };
  if (error.code === 'access_denied') {
    return new ConsentDeniedError(
      `${error.operation}: the account holder denied the consent request`,
      context,
    );
  }
  if (error.code === 'expired_token') {
    return new ConsentExpiredError(
      `${error.operation}: the consent request expired before the account holder answered`,
      context,
    );
  }
  return error;
}
