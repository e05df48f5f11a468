import { badRequest, json } from '../http';
import type { Route } from '../router';
import type { Product } from '../types';
import { isMsisdn } from '../validation';

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
      const { token, expiresIn } = ctx.tokens.issueAccess(product, ctx.options.apiUser.id, ctx.now);
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
