import { isApiError, isConnectionError, isMomoError } from '../errors';
import { isTransient } from './transient';

/**
 * What a call's attempts did on the wire, as its final error carries it: the one fact
 * the classification of a creating call's failure (`src/payments/failure.ts`) needs
 * beyond the error's own kind (docs/architecture.md, "What each driver does with each
 * failure").
 */
export interface CallSends {
  /** Some attempt's request was handed to the wire: the provider may hold it. */
  readonly reached: boolean;
  /**
   * Some attempt that reached the wire got no answer telling its fate (no answer, a
   * timeout, a 5xx, a 408): whatever a later attempt met, the payment is not known yet.
   */
  readonly fateUnknown: boolean;
}

/** Where a call's final error carries its record (a registered symbol: any copy of the package reads it). */
const SENDS = Symbol.for('momo-partner-sdk.call-sends');

/** The record of a call's attempts its final error carries, if it came out of the client's transport. */
export function sendsOf(error: unknown): CallSends | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const sends = (error as { [SENDS]?: unknown })[SENDS];
  return typeof sends === 'object' && sends !== null ? (sends as CallSends) : undefined;
}

/**
 * Whether an attempt that reached the wire and failed so left its fate unknown: the
 * provider may have taken it (a 429 never: it refuses before processing).
 */
export function fateUnknown(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  return isApiError(error) && error.status !== 429 && isTransient(error);
}

/**
 * Gives a call's final error its record, and says in its message what was sent: nothing
 * (sending it again is safe), or, where its own kind would suggest otherwise, that an
 * earlier attempt reached the provider and may have been accepted (look it up before
 * paying again). `lastReached`: whether the attempt that failed last reached the wire.
 * Only the SDK's own errors are told (a caller's abort reason is passed as it is).
 */
export function tellSends(
  error: unknown,
  referenceId: string | undefined,
  sends: CallSends,
  lastReached: boolean,
): void {
  if (!isMomoError(error)) return;
  Object.defineProperty(error, SENDS, { value: sends, configurable: true });
  let note: string | undefined;
  if (!sends.reached) note = 'Nothing was sent.';
  else if (referenceId !== undefined && sends.fateUnknown !== (lastReached && fateUnknown(error))) {
    note = `An earlier attempt reached the provider and may have been accepted: look up referenceId ${referenceId} before paying again.`;
  } else if (referenceId !== undefined && !lastReached) {
    note = `An earlier attempt reached the provider: look up referenceId ${referenceId} before paying again.`;
  }
  if (note === undefined) return;
  const message = `${error.message.replace(/\.?$/, '.')} ${note}`;
  if (typeof error.stack === 'string') error.stack = error.stack.replace(error.message, message);
  error.message = message;
}
