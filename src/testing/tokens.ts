import { v4 as uuidv4 } from 'uuid';
import type { Product } from './types';

/** An access token (from a product's token endpoint) or a consent token (sim.grantConsent). */
export type TokenRecord =
  | { kind: 'access'; product: Product; subject: string; partner: string; expiresAt: number }
  | { kind: 'consent'; msisdn: string; scope: string; expiresAt: number };

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Issues and verifies the simulator's tokens. Tokens look like unsigned JWTs (spec 2.6:
 * the access token is a JWT); only tokens issued here, and not yet expired, are valid.
 */
export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(private readonly ttlSeconds: number) {}

  /** A token for `subject`, an API user of `partner` (valid only with that partner's keys). */
  issueAccess(
    product: Product,
    subject: string,
    partner: string,
    now: number,
  ): { token: string; expiresIn: number } {
    const expiresAt = this.expiry(now);
    return this.issue({ kind: 'access', product, subject, partner, expiresAt }, now);
  }

  issueConsent(msisdn: string, scope: string, now: number): { token: string; expiresIn: number } {
    return this.issue({ kind: 'consent', msisdn, scope, expiresAt: this.expiry(now) }, now);
  }

  /** Forgets every access token issued so far (consent tokens stay valid). */
  revokeAccess(): void {
    for (const [token, record] of this.tokens) {
      if (record.kind === 'access') this.tokens.delete(token);
    }
  }

  /** The token's record when it was issued here and is still valid at `now`. */
  verify(token: string, now: number): TokenRecord | 'expired' | undefined {
    const record = this.tokens.get(token);
    if (!record) return undefined;
    return now < record.expiresAt ? record : 'expired';
  }

  private expiry(now: number): number {
    return now + this.ttlSeconds * 1000;
  }

  private issue(record: TokenRecord, now: number): { token: string; expiresIn: number } {
    const claims = {
      sub: record.kind === 'access' ? record.subject : record.msisdn,
      aud: record.kind === 'access' ? record.product : 'consent',
      iat: Math.floor(now / 1000),
      exp: Math.floor(record.expiresAt / 1000),
      jti: uuidv4(),
    };
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    this.tokens.set(token, record);
    return { token, expiresIn: this.ttlSeconds };
  }
}
