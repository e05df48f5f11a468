import { basicUserId } from '../guards';
import { badRequest, codeError, json } from '../http';
import { isActiveMsisdn } from '../outcomes';
import type { Route, RouteContext } from '../router';
import type { Product } from '../types';
import { isEmail, isMsisdn } from '../validation';

/** POST /{product}/token/ (spec 4.7): Basic credentials, no body. */
export function tokenRoute(product: Product): Route {
  return {
    method: 'POST',
    path: `/${product}/token/`,
    product,
    auth: 'basic',
    targetEnvironment: 'ignored',
    handle: (ctx) => {
      // MTN answers 400 to a body on the token endpoint; the spec says "No body".
      if (ctx.text.trim() !== '') return badRequest('The token endpoint takes no body.');
      // The token's subject is the API user that asked for it (the payee of its pre-approvals).
      const subject = basicUserId(ctx.headers.get('authorization') ?? '') ?? ctx.options.apiUser.id;
      const { token, expiresIn } = ctx.tokens.issueAccess(
        product,
        subject,
        ctx.partner.name,
        ctx.now,
      );
      return json(200, { access_token: token, token_type: 'access_token', expires_in: expiresIn });
    },
  };
}

/** GET /{product}/v1_0/account/balance (spec 4.19; Authorization optional). */
export function balanceRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/v1_0/account/balance`,
    product,
    auth: 'bearer-optional',
    targetEnvironment: 'required',
    handle: (ctx) =>
      json(200, {
        availableBalance: ctx.ledger.formattedBalance(product),
        currency: ctx.options.currency,
      }),
  };
}

/** GET /{product}/v1_0/account/balance/{currency} (spec 4.16; MTN's document on each product). */
export function balanceInCurrencyRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/v1_0/account/balance/{currency}`,
    product,
    auth: 'bearer-optional',
    targetEnvironment: 'required',
    handle: (ctx) => {
      const currency = ctx.params.currency ?? '';
      if (!/^[A-Z]{3}$/.test(currency)) {
        return badRequest('currency must be an ISO 4217 code of three capitals.');
      }
      if (currency !== ctx.options.currency) {
        return codeError(400, 'INVALID_CURRENCY', 'Currency not supported.');
      }
      return json(200, { availableBalance: ctx.ledger.formattedBalance(product), currency });
    },
  };
}

/**
 * GET /{product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/active: 200
 * `{result}` (MTN's BooleanResult). The type is `msisdn` or `email`, in small letters as
 * the document demands. Inactive (false): the inactive magic numbers (ending `123456`,
 * `123460`, `123462`: docs/simulator.md), and an
 * e-mail address beginning with `unknown`; every other valid id is active.
 */
export function activeRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/active`,
    product,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: (ctx) => {
      const idType = ctx.params.accountHolderIdType ?? '';
      const id = ctx.params.accountHolderId ?? '';
      if (idType === 'msisdn') {
        if (!isMsisdn(id)) return badRequest('The MSISDN must be in E.164 form.');
        return json(200, { result: isActiveMsisdn(id) });
      }
      if (idType === 'email') {
        if (!isEmail(id)) return badRequest('The e-mail address is not valid.');
        return json(200, { result: !/^unknown/i.test(id) });
      }
      return badRequest('accountHolderIdType must be msisdn or email (small letters).');
    },
  };
}

/** Account-holder id types of basic user info (MTN: MSISDN, Email, Alias, ID; any case). */
const USER_ID_TYPES = ['msisdn', 'email', 'alias', 'id'] as const;

/** The holder's id when valid for its type; 400 otherwise. */
function accountHolder(ctx: RouteContext): { idType: string; id: string } {
  const idType = (ctx.params.accountHolderIdType ?? '').toLowerCase();
  const id = ctx.params.accountHolderId ?? '';
  if (!(USER_ID_TYPES as readonly string[]).includes(idType)) {
    return badRequest('accountHolderIdType must be MSISDN, Email, Alias or ID.');
  }
  if (idType === 'msisdn' && !isMsisdn(id)) return badRequest('The MSISDN must be in E.164 form.');
  if (idType === 'email' && !isEmail(id)) return badRequest('The e-mail address is not valid.');
  if (id.trim() === '') return badRequest('accountHolderId is required.');
  return { idType, id };
}

/**
 * GET /{product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/basicuserinfo
 * (MTN's collection and disbursement documents). `msisdn/{msisdn}` (spec 4.18) is the
 * same route with the type `msisdn`.
 */
export function basicUserInfoByIdRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/basicuserinfo`,
    product,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: (ctx) => {
      const { idType, id } = accountHolder(ctx);
      return json(200, basicUserInfo(idType === 'msisdn' ? id : digitKey(id)));
    },
  };
}

/** A one-digit key for ids that are not MSISDNs, so that the same id gives the same person. */
function digitKey(id: string): string {
  let sum = 0;
  for (const char of id) sum += char.codePointAt(0) ?? 0;
  return String(sum % 10);
}

/** GET /{product}/oauth2/v1_0/userinfo (spec 4.20, MTN's documents on each product). */
export function userInfoRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/oauth2/v1_0/userinfo`,
    product,
    auth: 'consent',
    targetEnvironment: 'required',
    handle: (ctx) => {
      const msisdn = ctx.token?.kind === 'consent' ? ctx.token.msisdn : '';
      return json(200, userInfoWithConsent(msisdn));
    },
  };
}

/** GET /{product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo (spec 4.18). */
export function basicUserInfoRoute(product: Product): Route {
  return {
    method: 'GET',
    path: `/${product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`,
    product,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: (ctx) => {
      const msisdn = ctx.params.msisdn ?? '';
      if (!isMsisdn(msisdn)) return badRequest('The MSISDN must be in E.164 form.');
      return json(200, basicUserInfo(msisdn));
    },
  };
}

const GIVEN = ['Sand', 'Amara', 'Kwame', 'Nadia', 'Tendai'] as const;
const FAMILY = ['Box', 'Mensah', 'Okafor', 'Nsubuga', 'Dlamini'] as const;

/** Deterministic fake data: the same MSISDN always gives the same person. */
export function basicUserInfo(msisdn: string): Record<string, string> {
  const digit = Number(msisdn.at(-1) ?? '0');
  return {
    given_name: GIVEN[digit % GIVEN.length] ?? 'Sand',
    family_name: FAMILY[digit % FAMILY.length] ?? 'Box',
    birthdate: `19${70 + digit}-0${1 + (digit % 9)}-1${digit}`,
    locale: 'en-GB',
    gender: digit % 2 === 0 ? 'female' : 'male',
    status: 'ACTIVE',
  };
}

const MIDDLE = ['Ann', 'Kofi', 'Lee', 'Mary', 'Joe'] as const;
/** [country, region, city] of birth. */
const PLACES = [
  ['SE', 'Stockholm County', 'Stockholm'],
  ['UG', 'Central Region', 'Kampala'],
  ['GH', 'Greater Accra', 'Accra'],
  ['NG', 'Lagos State', 'Lagos'],
  ['ZW', 'Harare Province', 'Harare'],
] as const;

/** User info with consent (spec 2.6), built on basicUserInfo: same person, more fields. */
export function userInfoWithConsent(msisdn: string): Record<string, unknown> {
  const basic = basicUserInfo(msisdn);
  const digits = msisdn.replace(/^\+/, '');
  const digit = Number(digits.at(-1) ?? '0');
  const middle = MIDDLE[digit % MIDDLE.length] ?? 'Ann';
  const given = basic.given_name ?? '';
  const family = basic.family_name ?? '';
  const [country, region, city] = PLACES[digit % PLACES.length] ?? PLACES[0];
  return {
    sub: digits,
    name: `${given} ${middle} ${family}`,
    given_name: given,
    family_name: family,
    middle_name: middle,
    email: `${given}.${family}@example.com`.toLowerCase(),
    email_verified: true,
    gender: basic.gender,
    locale: basic.locale,
    phone_number: digits,
    phone_number_verified: true,
    address: `${digit + 1} Main Street, ${city}`,
    // Fixed, so that the same MSISDN always gives the same body.
    updated_at: 1_700_000_000,
    status: basic.status,
    birthdate: basic.birthdate,
    credit_score: String(500 + digit * 30),
    active: true,
    country_of_birth: country,
    region_of_birth: region,
    city_of_birth: city,
    occupation: 'Engineer',
    employer_name: 'Example Ltd',
    identification_type: 'PASS',
    identification_value: `P${digits.slice(-8).padStart(8, '0')}`,
  };
}
