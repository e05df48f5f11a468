import { v4 as uuidv4 } from 'uuid';
import { json, oauthError, rejectOauth } from '../http';
import type { Route, RouteContext } from '../router';
import type { Product } from '../types';
import { isMsisdn } from '../validation';
import { isHttpUrl } from './transactions';

/** The consent (CIBA) flow: bc-authorize (spec 4.21) and the consent token (4.9, 5.4). */

const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
/** Refresh validity when bc-authorize sent no consent_valid_in: 30 days (spec leaves it open). */
const DEFAULT_CONSENT_VALID_IN_SECONDS = 2_592_000;

/** Form fields, whatever Content-Type says (spec 4.9, 4.21: the header is optional). */
function form(ctx: RouteContext): URLSearchParams {
  return new URLSearchParams(ctx.text);
}

function required(fields: URLSearchParams, name: string): string {
  const value = fields.get(name);
  if (value === null || value.trim() === '') rejectOauth('invalid_request', `${name} is required.`);
  return value;
}

function bcAuthorize(ctx: RouteContext): Response {
  const callbackUrl = ctx.headers.get('x-callback-url') || undefined;
  if (callbackUrl !== undefined && !isHttpUrl(callbackUrl)) {
    rejectOauth('invalid_request', 'X-Callback-Url must be an http(s) URL.');
  }
  const fields = form(ctx);
  const msisdn = /^ID:(.+)\/MSISDN$/.exec(required(fields, 'login_hint'))?.[1];
  if (!isMsisdn(msisdn)) {
    rejectOauth('invalid_request', 'login_hint must be ID:{msisdn}/MSISDN with an E.164 MSISDN.');
  }
  const scope = required(fields, 'scope');
  const accessType = required(fields, 'access_type');
  if (accessType !== 'online' && accessType !== 'offline') {
    rejectOauth('invalid_request', 'access_type must be online or offline.');
  }
  const validIn = fields.get('consent_valid_in');
  if (validIn !== null && !/^[1-9]\d*$/.test(validIn)) {
    rejectOauth('invalid_request', 'consent_valid_in must be a positive number of seconds.');
  }
  // X-Callback-Url is recorded only: the spec shows no consent callback payload.
  const created = ctx.consents.create(
    {
      msisdn,
      scope,
      accessType,
      consentValidIn: validIn === null ? undefined : Number(validIn),
      callbackUrl,
    },
    ctx.now,
  );
  return json(200, {
    auth_req_id: created.authReqId,
    interval: created.interval,
    expires_in: created.expiresIn,
  });
}

function consentToken(ctx: RouteContext): Response {
  const fields = form(ctx);
  const grantType = required(fields, 'grant_type');
  if (grantType !== CIBA_GRANT) {
    rejectOauth('unsupported_grant_type', `grant_type must be ${CIBA_GRANT}.`);
  }
  const answer = ctx.consents.poll(required(fields, 'auth_req_id'), ctx.now);
  if (answer.kind === 'error') return oauthError(400, answer.error, answer.description);
  const { token, expiresIn } = ctx.tokens.issueConsent(answer.msisdn, answer.scope, ctx.now);
  return json(200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: expiresIn,
    scope: answer.scope,
    refresh_token: uuidv4(),
    refresh_token_expired_in: answer.consentValidIn ?? DEFAULT_CONSENT_VALID_IN_SECONDS,
  });
}

/** bc-authorize and the consent token on one product's paths (MTN's documents). */
function productConsentRoutes(product: Product): Route[] {
  return [
    {
      method: 'POST',
      path: `/${product}/v1_0/bc-authorize`,
      product,
      auth: 'bearer',
      targetEnvironment: 'required',
      handle: bcAuthorize,
    },
    {
      method: 'POST',
      path: `/${product}/oauth2/token/`,
      product,
      auth: 'basic',
      targetEnvironment: 'required',
      handle: consentToken,
    },
  ];
}

export const consentRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collectionwithnewcapabilities/v1_0/bc-authorize',
    // docs/credentials.md: ...withnewcapabilities paths belong to their base product.
    product: 'collection',
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: bcAuthorize,
  },
  ...productConsentRoutes('collection'),
  ...productConsentRoutes('disbursement'),
  ...productConsentRoutes('remittance'),
];
