import type { ApiUserStore } from './api-users';
import { Rejection, reject, unauthorized } from './http';
import type { ResolvedOptions } from './options';
import type { ResolvedPartner } from './partners';
import type { AuthMode, TargetEnvironmentRule } from './router';
import type { TokenRecord, TokenStore } from './tokens';
import type { Product } from './types';

/** Spec 5.1: every call carries the subscription key; it names the partner calling. */
export function checkSubscriptionKey(headers: Headers, options: ResolvedOptions): ResolvedPartner {
  const key = headers.get('ocp-apim-subscription-key');
  if (key === null || key === '') throw new Rejection(unauthorized('missing_subscription_key'));
  const partner = options.partners.byKey(key);
  if (partner === undefined) throw new Rejection(unauthorized('invalid_subscription_key'));
  return partner;
}

/** Spec 4.0: the wallet system is chosen by X-Target-Environment. */
export function checkTargetEnvironment(
  headers: Headers,
  rule: TargetEnvironmentRule,
  options: ResolvedOptions,
): void {
  if (rule === 'ignored') return;
  const value = headers.get('x-target-environment');
  if (value === null || value === '') {
    if (rule === 'optional') return;
    reject(400, 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'X-Target-Environment header is required.');
  }
  if (value !== options.targetEnvironment) {
    // MTN answers a wrong environment with 500 (spec 4.16, 4.19; MTN's own document).
    reject(500, 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'Access to target environment is forbidden.');
  }
}

/** The user id of a Basic Authorization value, if it is one. */
export function basicUserId(authorization: string): string | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * Basic credentials of one of the partner's API users, or of one it provisioned (spec
 * 4.7, 5.2): another partner's API user with this partner's key is refused.
 */
export function basicCredentialsValid(
  authorization: string,
  partner: ResolvedPartner,
  apiUsers: ApiUserStore,
): boolean {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
  if (encoded === undefined) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  if (partner.apiUsers.some((user) => decoded === `${user.id}:${user.key}`)) return true;
  const colon = decoded.indexOf(':');
  return (
    colon > 0 && apiUsers.verify(decoded.slice(0, colon), decoded.slice(colon + 1), partner.name)
  );
}

/**
 * Checks Authorization for a route. Returns the verified Bearer token, if any; throws a
 * 401 `{error}` otherwise.
 */
export function authenticate(
  headers: Headers,
  mode: AuthMode,
  product: Product,
  partner: ResolvedPartner,
  tokens: TokenStore,
  now: number,
  apiUsers: ApiUserStore,
): TokenRecord | undefined {
  if (mode === 'none') return undefined;
  const authorization = headers.get('authorization') ?? '';
  if (mode === 'basic' || (mode === 'basic-or-bearer' && /^Basic\s/i.test(authorization))) {
    if (basicCredentialsValid(authorization, partner, apiUsers)) return undefined;
    throw new Rejection(unauthorized('login_failed'));
  }
  if (authorization === '' && mode === 'bearer-optional') return undefined;
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (bearer === undefined) throw new Rejection(unauthorized('missing_token'));
  const record = tokens.verify(bearer, now);
  if (record === 'expired') throw new Rejection(unauthorized('token_expired'));
  const wanted = mode === 'consent' ? 'consent' : 'access';
  if (record?.kind !== wanted) throw new Rejection(unauthorized('invalid_token'));
  if (record.kind === 'access' && record.product !== product) {
    throw new Rejection(unauthorized('invalid_token'));
  }
  // Another partner's token with this partner's key: the gateway knows it as no token of theirs.
  if (record.kind === 'access' && record.partner !== partner.name) {
    throw new Rejection(unauthorized('invalid_token'));
  }
  return record;
}
