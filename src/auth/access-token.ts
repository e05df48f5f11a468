import { inspectSymbol } from '../inspect';
import type { StoredToken } from './token-cache';

/**
 * What `getAccessToken()` returns. The token is readable as `.accessToken` but never
 * printed: JSON and `util.inspect` show it redacted.
 */
export class AccessToken {
  readonly #token: StoredToken;

  constructor(token: StoredToken) {
    this.#token = token;
  }

  get accessToken(): string {
    return this.#token.accessToken;
  }

  get tokenType(): string {
    return this.#token.tokenType;
  }

  get expiresAt(): Date {
    return new Date(this.#token.expiresAt);
  }

  /** Seconds of validity left now. */
  get expiresIn(): number {
    return Math.max(0, Math.floor((this.#token.expiresAt - Date.now()) / 1000));
  }

  /** The token for JSON, its value shown as `[redacted]`. */
  toJSON() {
    return { accessToken: '[redacted]', tokenType: this.tokenType, expiresAt: this.expiresAt };
  }

  /** What `util.inspect` and `console.log` show: the token `[redacted]`. */
  [inspectSymbol](): string {
    return `AccessToken { tokenType: '${this.tokenType}', expiresAt: ${this.expiresAt.toISOString()}, accessToken: [redacted] }`;
  }
}
