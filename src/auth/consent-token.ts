import type { RequestOptions } from '../core/options';
import { inspectSymbol } from '../inspect';

/** What a `ConsentToken` is made from: the consent token endpoint's answer. */
export interface ConsentTokenInit {
  accessToken: string;
  tokenType?: string | undefined;
  /** Seconds of validity from `issuedAt`. */
  expiresIn?: number | undefined;
  scope?: string | undefined;
  refreshToken?: string | undefined;
  /** Seconds until the consent can no longer be refreshed. */
  refreshTokenExpiresIn?: number | undefined;
  issuedAt?: number | undefined;
}

/**
 * An account holder's consent (a CIBA token), accepted wherever `{ consent }` is. Tokens
 * are readable as properties but never printed by JSON or `util.inspect`.
 */
export class ConsentToken {
  readonly #accessToken: string;
  readonly #refreshToken: string | undefined;
  declare readonly tokenType: string;
  declare readonly scope: string | undefined;
  declare readonly expiresAt: Date;
  declare readonly refreshTokenExpiresAt: Date | undefined;

  constructor(init: ConsentTokenInit) {
    const issuedAt = init.issuedAt ?? Date.now();
    this.#accessToken = init.accessToken;
    this.#refreshToken = init.refreshToken;
    this.tokenType = init.tokenType ?? 'Bearer';
    this.scope = init.scope;
    // Spec 2.6: default validity of a consent access token is 3600 seconds.
    this.expiresAt = new Date(issuedAt + (init.expiresIn ?? 3600) * 1000);
    this.refreshTokenExpiresAt =
      init.refreshTokenExpiresIn === undefined
        ? undefined
        : new Date(issuedAt + init.refreshTokenExpiresIn * 1000);
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  get refreshToken(): string | undefined {
    return this.#refreshToken;
  }

  /** The token for JSON, the access and refresh tokens shown as `[redacted]`. */
  toJSON() {
    return {
      accessToken: '[redacted]',
      refreshToken: this.#refreshToken === undefined ? undefined : '[redacted]',
      tokenType: this.tokenType,
      scope: this.scope,
      expiresAt: this.expiresAt,
      refreshTokenExpiresAt: this.refreshTokenExpiresAt,
    };
  }

  /** What `util.inspect` and `console.log` show: the tokens `[redacted]`. */
  [inspectSymbol](): string {
    return `ConsentToken ${JSON.stringify(this.toJSON())}`;
  }
}

/** The bearer value of a `{ consent }` option. */
export function consentAccessToken(consent: unknown): string | undefined {
  if (typeof consent === 'string') return consent.trim() || undefined;
  if (consent instanceof ConsentToken) return consent.accessToken;
  if (consent !== null && typeof consent === 'object') {
    const value = (consent as { accessToken?: unknown }).accessToken;
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

/** The last argument of a call made with the account holder's consent. */
export interface ConsentRequestOptions extends RequestOptions {
  /** The account holder's consent: a ConsentToken or its access token string. */
  consent: ConsentToken | string;
}
