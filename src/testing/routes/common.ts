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
function basicUserInfo(msisdn: string): Record<string, string> {
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
