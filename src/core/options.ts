import type { ConsentToken } from '../auth/consent-token';
import type { StoredToken, TokenStore } from '../auth/token-cache';
import type { CallbackBus } from '../scale-out/callback-bus';
import type { Journal } from '../scale-out/journal';

export type ProductName = 'disbursement' | 'collection' | 'remittance';

export interface ApiUser {
  /** API user id (X-Reference-Id used when the API user was created). */
  id: string;
  /** API key of that user. */
  key: string;
}

export interface ProductOptions {
  subscriptionKey?: string;
  apiUser?: ApiUser;
}

export interface PollingOptions {
  /** Delay before the first lookup after acceptance, and the first backoff step. */
  initialDelayMs?: number;
  /** Backoff ceiling between lookups. */
  maxDelayMs?: number;
  /** Default deadline of `wait()`. */
  timeoutMs?: number;
}

/** Receives SDK log lines. Nothing secret is ever passed to it. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

export interface MomoClientOptions {
  /** e.g. `https://sandbox.momodeveloper.mtn.com`; plain http only for loopback hosts. */
  baseUrl: string;
  /** X-Target-Environment, and the default X-Account-Holding-Institution-Identifier. */
  targetEnvironment: string;
  /** X-Account-Holding-Institution-Identifier of the standard-style endpoints; default `targetEnvironment`. */
  accountHoldingInstitutionIdentifier?: string;
  /** Default subscription key (Ocp-Apim-Subscription-Key) of every product. */
  subscriptionKey?: string;
  /** Default API user of every product. */
  apiUser?: ApiUser;
  disbursement?: ProductOptions;
  collection?: ProductOptions;
  remittance?: ProductOptions;
  /** Default X-Callback-Url; `{referenceId}` is replaced by the call's reference id. */
  callbackUrl?: string;
  /** Per attempt. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  polling?: PollingOptions;
  fetch?: typeof globalThis.fetch;
  logger?: Logger;
  /** Share access tokens across processes. */
  tokenStore?: TokenStore;
  // --- scale-out (momo-partner-sdk/redis) ---
  /** Carries confirmed callback results to every instance's waits. */
  callbackBus?: CallbackBus;
  /** Records creating calls before they are sent; default in memory. */
  journal?: Journal;
}

/** The last, optional argument of every method. */
export interface RequestOptions {
  /** X-Reference-Id (UUID v4) of a creating call; generated when omitted. */
  referenceId?: string;
  /** X-Callback-Url for this call; `{referenceId}` is filled in. */
  callbackUrl?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Extra headers; they never replace the headers the SDK owns. */
  headers?: Record<string, string>;
}

export interface ConsentRequestOptions extends RequestOptions {
  /** The account holder's consent: a ConsentToken or its access token string. */
  consent: ConsentToken | string;
}

export type { StoredToken, TokenStore };
