import type { Config, Credentials } from '../core/config';
import { defineOperation, type Operation } from '../core/operation';
import type { ProductName } from '../core/options';
import type { Authorizer, CallInput, Transport } from '../core/transport';
import { sharedStateHealth } from '../scale-out/health';
import { accessTokenResponse } from '../schemas/token';
import { consentAccessToken } from './consent-token';
import { type StoredToken, TokenCache } from './token-cache';

/** Spec 4.7: POST /{product}/token/, Basic credentials, no body. */
const tokenOperation = (product: ProductName) =>
  defineOperation({
    name: `${product}.getAccessToken`,
    method: 'POST',
    path: `/${product}/token/`,
    product,
    auth: 'basic',
    routing: 'none',
    result: accessTokenResponse,
  });

const tokenOperations = {
  disbursement: tokenOperation('disbursement'),
  collection: tokenOperation('collection'),
  remittance: tokenOperation('remittance'),
};

/** Used when a token response has no usable expires_in. */
const DEFAULT_TOKEN_SECONDS = 3600;

/**
 * Auth as a strategy around every request: Basic from the API user, Bearer from the
 * token cache (one cache per product, API user and target environment), or the
 * caller's consent token.
 */
export class ApiUserAuthorizer implements Authorizer {
  readonly #config: Config;
  readonly #cache: TokenCache;
  #transport: Transport | undefined;

  constructor(config: Config) {
    this.#config = config;
    this.#cache = new TokenCache(config.tokenStore, sharedStateHealth(config).of('token store'));
  }

  /** The transport that token requests go through (set once, right after construction). */
  attach(transport: Transport): void {
    this.#transport = transport;
  }

  async authorization(op: Operation, credentials: Credentials, options: CallInput['options']) {
    if (op.auth === 'basic') return { value: this.#basic(credentials) };
    if (op.auth === 'consent') {
      const token = consentAccessToken((options as { consent?: unknown } | undefined)?.consent);
      if (token) this.#config.scrubber.add(token);
      return { value: `Bearer ${token}` };
    }
    const key = this.cacheKey(credentials);
    const token = await this.#cache.get(key, () => this.#requestToken(credentials));
    return {
      value: `Bearer ${token.accessToken}`,
      refused: () => this.#cache.invalidate(key, token.accessToken),
    };
  }

  /** The API-user access token of a product (cached unless `forceRefresh`). */
  async accessToken(product: ProductName, forceRefresh = false): Promise<StoredToken> {
    const credentials = this.#config.credentials(product);
    const key = this.cacheKey(credentials);
    return this.#cache.get(key, () => this.#requestToken(credentials), forceRefresh);
  }

  cacheKey(credentials: Credentials): string {
    return `momo:${credentials.product}:${credentials.apiUser.id}:${this.#config.targetEnvironment}`;
  }

  #basic(credentials: Credentials): string {
    const raw = `${credentials.apiUser.id}:${credentials.apiUser.key.reveal()}`;
    const value = Buffer.from(raw, 'utf8').toString('base64');
    this.#config.scrubber.add(value);
    return `Basic ${value}`;
  }

  async #requestToken(credentials: Credentials): Promise<StoredToken> {
    if (!this.#transport) throw new Error('ApiUserAuthorizer used before attach()');
    const issuedAt = Date.now();
    const { data } = await this.#transport.call(tokenOperations[credentials.product]);
    this.#config.scrubber.add(data.access_token);
    const seconds =
      data.expires_in !== undefined && data.expires_in > 0
        ? data.expires_in
        : DEFAULT_TOKEN_SECONDS;
    return {
      accessToken: data.access_token,
      tokenType: data.token_type ?? 'access_token',
      issuedAt,
      expiresAt: issuedAt + seconds * 1000,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'ApiUserAuthorizer';
  }
}
