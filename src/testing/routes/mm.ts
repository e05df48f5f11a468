import { json, mmError, Rejection, rejectMm } from '../http';
import { isActiveMsisdn } from '../outcomes';
import type { Route, RouteContext, RouteHandler } from '../router';
import { isAnyUuid, isEmail, isMsisdn } from '../validation';

/**
 * Shared rules of the standard-style (`/mm/`) endpoints, whose errors use spec 7.2, and
 * the two queries among them: account status (4.11) and heartbeat (4.17).
 */

/**
 * Spec 4.0: X-Account-Holding-Institution-Identifier routes these calls, as
 * X-Target-Environment does the others. Missing: 400; another value: 404 (4.6 lists 404).
 */
export function checkInstitution(ctx: RouteContext): void {
  const value = ctx.headers.get('x-account-holding-institution-identifier');
  if (value === null || value === '') {
    rejectMm(
      400,
      'Validation',
      'MandatoryValueNotSupplied',
      'X-Account-Holding-Institution-Identifier header is required.',
    );
  }
  if (value !== ctx.options.targetEnvironment) {
    rejectMm(404, 'Identification', 'IdentifierError', 'Unknown account holding institution.');
  }
}

/** Unexpected failures answer 500 in the 7.2 format (4.6, 4.11, 4.17), not {code, message}. */
export function mmGuard(handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (error) {
      if (error instanceof Rejection) throw error;
      return mmError(500, 'internal', 'GenericError', 'The simulator failed unexpectedly.');
    }
  };
}

const IDENTIFIER_KINDS: Readonly<Record<string, (value: string) => boolean>> = {
  accountid: isAnyUuid,
  msisdn: isMsisdn,
  identityalias: () => true,
  emailaddress: isEmail,
};

/** Spec 8: an account identifier is 1 to 256 characters. */
const IDENTIFIER_MAX = 256;

/** `unavailable` for the inactive magic numbers, and for aliases/e-mails named so. */
function accountStatus(identifierType: string, identifier: string): 'available' | 'unavailable' {
  if (identifierType === 'msisdn') {
    return isActiveMsisdn(identifier) ? 'available' : 'unavailable';
  }
  const named = identifierType === 'identityalias' || identifierType === 'emailaddress';
  return named && identifier.toLowerCase().startsWith('unavailable') ? 'unavailable' : 'available';
}

function getAccountStatus(ctx: RouteContext): Response {
  checkInstitution(ctx);
  const identifierType = ctx.params.identifierType ?? '';
  const identifier = ctx.params.identifier ?? '';
  const valid = IDENTIFIER_KINDS[identifierType];
  if (!valid) {
    rejectMm(
      400,
      'Validation',
      'IdentifierError',
      'identifierType must be accountid, msisdn, identityalias or emailaddress.',
    );
  }
  if (identifier.length > IDENTIFIER_MAX) {
    rejectMm(400, 'Validation', 'LengthError', 'The identifier must be 1 to 256 characters.');
  }
  if (!valid(identifier)) {
    rejectMm(400, 'Validation', 'FormatError', `The identifier is not a valid ${identifierType}.`);
  }
  return json(200, { accountStatus: accountStatus(identifierType, identifier) });
}

export const mmQueryRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/collection/v1_2/mm/accounts/{identifierType}/{identifier}/status',
    product: 'collection',
    auth: 'bearer-optional',
    // Routed by X-Account-Holding-Institution-Identifier instead (checkInstitution).
    targetEnvironment: 'ignored',
    handle: mmGuard(getAccountStatus),
  },
  {
    method: 'GET',
    path: '/collection/v1.2/mm/Heartbeat',
    product: 'collection',
    auth: 'bearer-optional',
    // Spec 4.17 lists no routing header: the heartbeat answers for the service as a whole.
    targetEnvironment: 'ignored',
    handle: mmGuard(() => json(200, { serviceStatus: 'available' })),
  },
];
