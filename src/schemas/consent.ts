import * as z from 'zod/mini';
import { msisdn, wholeNumber } from './common';
import { lazy } from './lazy';
import { seconds } from './token';

/** What `momo.consent.authorize()` takes. */
export const authorizeInput = lazy(() =>
  z.strictObject({
    /** The account holder's MSISDN; sent as `login_hint=ID:{msisdn}/MSISDN`. */
    msisdn: msisdn(),
    scope: z.string().check(z.regex(/\S/, { error: 'must not be empty' })),
    accessType: z.enum(['online', 'offline']),
    /** Seconds the consent stays refreshable (`consent_valid_in`). */
    consentValidIn: z.optional(wholeNumber(' of seconds', 1)),
    /** X-Callback-Url of this request. */
    callbackUrl: z.optional(z.string()),
  }),
);

/** What `momo.consent.authorize()` takes. */
export interface AuthorizeInput {
  /** The account holder's MSISDN. */
  msisdn: string;
  /** What the consent covers, e.g. `profile` or `all_info`. */
  scope: string;
  /** `offline` lets the consent be refreshed without the account holder. */
  accessType: 'online' | 'offline';
  /** Seconds the consent stays refreshable. */
  consentValidIn?: number | undefined;
  /** X-Callback-Url of this request. */
  callbackUrl?: string | undefined;
}

/** bc-authorize form body (spec 4.21). */
export const authorizeForm = lazy(() =>
  z.strictObject({
    login_hint: z.string(),
    scope: z.string(),
    access_type: z.string(),
    consent_valid_in: z.optional(z.number()),
  }),
);

/** Consent token request form body (spec 4.9). */
export const consentTokenForm = lazy(() =>
  z.strictObject({
    grant_type: z.enum(['urn:openid:params:grant-type:ciba']),
    auth_req_id: z.string().check(z.minLength(1, { error: 'must not be empty' })),
  }),
);

/** Consent request (spec 2.6). */
export const consentRequestResponse = lazy(() =>
  z.looseObject({
    auth_req_id: z.string().check(z.minLength(1)),
    interval: z.optional(seconds()),
    expires_in: z.optional(seconds()),
  }),
);

/** Consent token (spec 2.6). */
export const consentTokenResponse = lazy(() =>
  z.looseObject({
    access_token: z.string().check(z.minLength(1)),
    token_type: z.optional(z.string()),
    expires_in: z.optional(seconds()),
    scope: z.optional(z.string()),
    refresh_token: z.optional(z.string()),
    refresh_token_expired_in: z.optional(seconds()),
  }),
);
