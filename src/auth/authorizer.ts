import type { ComponentHealth } from '../contracts/health';
import type { Authorization, Authorizer, CallInput, CallResult } from '../core/call';
import { callbackToken } from '../core/callback-token';
import type { Config, Credentials } from '../core/config';
import { defineOperation, type Operation } from '../core/operation';
import type { ProductName, TokenStore } from '../core/options';
import { inspectSymbol } from '../inspect';
import { accessTokenResponse } from '../schemas/token';
import { consentAccessToken } from './consent-token';
import { type StoredToken, TokenCache } from './token-cache';

/**
 * Spec 4.7: POST /{product}/token/, Basic credentials, no body. X-Target-Environment
 * too: the provider's new production platform refuses a token request without it (the
 * legacy one and the sandbox ignore it).
 */
const tokenOperation = (product: ProductName) =>
  defineOperation({
    name: `${product}.getAccessToken`,
    method: 'POST',
    path: `/${product}/token/`,
    product,
    auth: 'basic',
    routing: 'environment',
    limited: false,
    result: accessTokenResponse,
  });

const tokenOperations = {
  disbursement: tokenOperation('disbursement'),
  collection: tokenOperation('collection'),
  remittance: tokenOperation('remittance'),
};

/** The token answer as the schema reads it (stated here, so no zod type reaches the d.ts). */
interface TokenResponse {
  access_token: string;
  token_type?: string | undefined;
  expires_in?: number | undefined;
}
type SendTokenRequest = (
  op: Operation<never, TokenResponse>,
  options?: { maxRetries?: number },
) => Promise<CallResult<TokenResponse>>;

/**
 * A token request made for a call is one attempt of that call: it is not retried on its
 * own, the call's retry loop retries the whole attempt (docs/assumptions.md T23).
 */
const WITHIN_A_CALL = { maxRetries: 0 };
/**
 * Base64 of the UTF-8 bytes of `text`, with web APIs only (no Buffer): the client runs
 * wherever fetch does. `btoa` alone would throw on a key outside Latin-1.
 */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Used when a token response has no expires_in. */
const DEFAULT_TOKEN_SECONDS = 3600;
/** The longest a token is kept, whatever its expires_in says (docs/assumptions.md). */
const MAX_TOKEN_SECONDS = 86_400;

/**
 * How long a token is kept: none when `expires_in` is 0 or less (expired on arrival: it
 * serves the call that asked for it, and is neither cached nor stored), at most a day.
 */
function tokenLifetimeSeconds(expiresIn: number | undefined): number {
  if (expiresIn === undefined || Number.isNaN(expiresIn)) return DEFAULT_TOKEN_SECONDS;
  return Math.min(Math.max(expiresIn, 0), MAX_TOKEN_SECONDS);
}

/**
 * Auth as a strategy around every request: Basic from the API user, Bearer from the
 * token cache (one cache per product, API user and target environment), or the
 * caller's consent token.
 */
export class ApiUserAuthorizer implements Authorizer {
  readonly #config: Config;
  readonly #cache: TokenCache;
  readonly #send: SendTokenRequest;
  readonly #bearers = new WeakMap<StoredToken, Authorization>();
  /** Credentials are made once per product (Config.credentials), so their keys are too. */
  readonly #keys = new WeakMap<Credentials, string>();

  /**
   * `send` puts token requests through the client's transport (retries, limits, hooks);
   * `health` is the token store's entry in the client's shared-state health.
   */
  constructor(
    config: Config,
    store: TokenStore | undefined,
    send: SendTokenRequest,
    health: ComponentHealth,
  ) {
    this.#config = config;
    this.#cache = new TokenCache(store, health, config.tokenRefreshWindowMs);
    this.#send = send;
  }

  problem(op: Operation, options: CallInput['options']) {
    if (op.auth !== 'consent' || consentAccessToken(options?.consent)) return undefined;
    return {
      path: 'options.consent',
      message: 'is required: a ConsentToken or its access token string',
    };
  }

  /** Answered at once (no promise) while the product's token is fresh: the common case. */
  authorization(
    op: Operation,
    credentials: Credentials,
    options: CallInput['options'],
  ): Authorization | Promise<Authorization> {
    if (op.auth === 'basic') return { value: this.#basic(credentials) };
    if (op.auth === 'consent') {
      const token = consentAccessToken(options?.consent);
      if (token) this.#config.scrubber.add(token);
      return { value: `Bearer ${token}` };
    }
    const key = this.cacheKey(credentials);
    const fresh = this.#cache.peek(key);
    if (fresh) return this.#bearer(key, fresh);
    return this.#cache
      .get(key, () => this.#requestToken(credentials, WITHIN_A_CALL))
      .then((token) => this.#bearer(key, token));
  }

  /** One Authorization per token, made on its first use and shared by every call after. */
  #bearer(key: string, token: StoredToken): Authorization {
    let bearer = this.#bearers.get(token);
    if (bearer === undefined) {
      bearer = {
        value: `Bearer ${token.accessToken}`,
        refused: () => this.#cache.invalidate(key, token.accessToken),
        issuedAt: token.issuedAt,
      };
      this.#bearers.set(token, bearer);
    }
    return bearer;
  }

  /** The API-user access token of a product (cached unless `forceRefresh`). */
  async accessToken(product: ProductName, forceRefresh = false): Promise<StoredToken> {
    const credentials = this.#config.credentials(product);
    const key = this.cacheKey(credentials);
    return this.#cache.get(key, () => this.#requestToken(credentials), forceRefresh);
  }

  /**
   * `momo:{product}:{apiUserId}:{targetEnvironment}:{baseUrl}:{keyDigest}`: a token belongs
   * to the platform that issued it and to the subscription key it was issued under (the
   * provider refuses it with another), so two hosts or two partners (tenants) sharing a
   * token store never get each other's. The key is a secret: only 16 hex digits of a
   * one-way digest of it (an HMAC under it, reusing the SHA-256 the entry already has).
   */
  cacheKey(credentials: Credentials): string {
    let key = this.#keys.get(credentials);
    if (key === undefined) {
      const { product, apiUser, subscriptionKey } = credentials;
      const { targetEnvironment, baseUrl } = this.#config;
      key = `momo:${product}:${apiUser.id}:${targetEnvironment}:${baseUrl}:${callbackToken(subscriptionKey.reveal(), '').slice(0, 16)}`;
      this.#keys.set(credentials, key);
    }
    return key;
  }

  #basic(credentials: Credentials): string {
    const raw = `${credentials.apiUser.id}:${credentials.apiUser.key.reveal()}`;
    const value = base64Utf8(raw);
    this.#config.scrubber.add(value);
    return `Basic ${value}`;
  }

  /** `options`: WITHIN_A_CALL for a call's token; none for `getAccessToken()`, a call of its own. */
  async #requestToken(
    credentials: Credentials,
    options?: { maxRetries?: number },
  ): Promise<StoredToken> {
    const issuedAt = Date.now();
    const { data } = await this.#send(tokenOperations[credentials.product], options);
    this.#config.scrubber.add(data.access_token);
    const seconds = tokenLifetimeSeconds(data.expires_in);
    return {
      accessToken: data.access_token,
      tokenType: data.token_type ?? 'access_token',
      issuedAt,
      expiresAt: issuedAt + seconds * 1000,
    };
  }

  [inspectSymbol](): string {
    return 'ApiUserAuthorizer';
  }
}
