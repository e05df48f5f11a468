import type { WaitTrace } from '../contracts/telemetry';
import type { ValidationIssue } from '../errors';
import type { Credentials } from './config';
import type { Operation } from './operation';
import type { RequestOptions } from './options';
import type { ResponseHeaders } from './raw-headers';

/** What a product method hands the transport, besides the operation. */
export interface CallInput {
  params?: Record<string, string>;
  body?: unknown;
  /** Headers an operation itself sets (e.g. Language); the caller's never replace them. */
  headers?: Record<string, string>;
  /** The caller's options; consent-based calls carry `consent` too. */
  options?: (RequestOptions & { consent?: unknown }) | undefined;
  /** Set on a lookup made by a `wait()`: the telemetry counts it there (internal). */
  trace?: WaitTrace | undefined;
  /**
   * Set on a lookup made by a `wait()`: the wait's deadline, honoured while the attempt is
   * queued at the admission stage (QueuedPastDeadline) (internal).
   */
  queuedUntil?: number | undefined;
}

export interface CallResult<T> {
  data: T;
  status: number;
  headers: ResponseHeaders;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  /** The provider's request id (see `requestIdOf`), for support tickets. */
  requestId: string | undefined;
  /** A retry met the operation's "landed" answer: an earlier attempt of this call landed. */
  landedEarlier: boolean;
}

/** The Authorization of one attempt; `refused` is told about a 401 (the call is replayed once). */
export interface Authorization {
  value: string | undefined;
  refused?(): Promise<void>;
  /** When its token was issued (epoch ms): one older than a refusal may be refused too. */
  issuedAt?: number | undefined;
}

/**
 * Auth as a strategy wrapped around every request. The transport knows only this
 * interface; the API-user and consent strategies live in auth/.
 */
export interface Authorizer {
  /** Why the options cannot authorize this operation (checked before sending), or undefined. */
  problem(
    op: Operation<unknown, unknown>,
    options: CallInput['options'],
  ): ValidationIssue | undefined;
  authorization(
    op: Operation<unknown, unknown>,
    credentials: Credentials,
    options: CallInput['options'],
  ): Authorization | Promise<Authorization>;
}
