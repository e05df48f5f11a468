import { badRequest, codeError, empty } from '../http';
import type { Route, RouteContext } from '../router';
import {
  amountField,
  currencyField,
  isAnyUuid,
  objectBody,
  optionalTexts,
  partyField,
} from '../validation';
import {
  activeRoute,
  balanceInCurrencyRoute,
  balanceRoute,
  basicUserInfoByIdRoute,
  tokenRoute,
  userInfoRoute,
} from './common';
import { ownTransaction } from './partner-scope';
import { withoutPromptUnderMandate } from './preapprovals';
import {
  type CreateSpec,
  createTransaction,
  jsonBody,
  lookupTransaction,
  type ParsedCreate,
} from './transactions';

const C = 'collection' as const;

/** Request to pay and request to withdraw body (spec 2.2): a payer instead of a payee. */
export function payerBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  return {
    amount: amountField(body),
    currency: currencyField(body, ctx.options.currency),
    payer: partyField(body, 'payer'),
    ...optionalTexts(body),
  };
}

/** ISO 639-1 or 639-3 (spec 4.0): two or three letters. */
const LANGUAGE = /^[A-Za-z]{2,3}$/;
/** The spec gives no limit; 160 is the limit of the other notes (payerMessage, payeeNote). */
const NOTIFICATION_MAX = 160;

/**
 * POST .../requesttopay/{referenceId}/deliverynotification (spec 4.14). Checks, in order:
 * 400 (id, Language, body), 404 (unknown or not a request to pay), 429 (one was already
 * accepted), 409 (not SUCCESSFUL), 410 (window passed), then 200 and the record.
 */
function deliveryNotification(ctx: RouteContext): Response {
  const referenceId = ctx.params.referenceId ?? '';
  if (!isAnyUuid(referenceId)) return badRequest('The reference id must be a UUID.');
  const language = ctx.headers.get('language') || undefined; // empty counts as absent
  if (language !== undefined && !LANGUAGE.test(language)) {
    return badRequest('Language must be an ISO 639-1 or ISO 639-3 code.');
  }
  const message = objectBody(jsonBody(ctx)).notificationMessage;
  if (typeof message !== 'string' || message === '') {
    return badRequest('notificationMessage is required.');
  }
  if (message.length > NOTIFICATION_MAX) {
    return badRequest(`notificationMessage must be at most ${NOTIFICATION_MAX} characters.`);
  }
  const tx = ownTransaction(ctx, referenceId);
  if (tx?.operation !== 'collection.requestToPay' || tx.product !== ctx.product) {
    return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
  }
  // Spec 4.14/8: 429 only after a successful attempt; it wins over every later state.
  if (ctx.deliveries.has(referenceId)) {
    return codeError(
      429,
      'NOT_ALLOWED',
      'A delivery notification was already sent for this transaction.',
    );
  }
  if (tx.status !== 'SUCCESSFUL') {
    return codeError(
      409,
      'TRANSACTION_NOT_COMPLETED',
      'The transaction is not successfully completed.',
    );
  }
  if (ctx.now - (tx.finalizedAt ?? ctx.now) > ctx.options.deliveryNotificationWindowMs) {
    return codeError(410, 'EXPIRED', 'The opportunity for a delivery notification has expired.');
  }
  ctx.deliveries.add({
    referenceId: tx.referenceId,
    message,
    ...(language !== undefined ? { language } : {}),
  });
  return empty(200);
}

/**
 * The Collection route table (without vouchers, standard-style and consent, which have
 * their own files). Money comes in: a successful collection credits the account.
 */
export const collectionRoutes: readonly Route[] = [
  tokenRoute(C),
  balanceRoute(C),
  balanceInCurrencyRoute(C),
  basicUserInfoByIdRoute(C),
  activeRoute(C),
  userInfoRoute(C),
  {
    method: 'POST',
    path: '/collection/v1_0/requesttopay',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'collection.requestToPay',
      // The spec is silent on requesttopay; PUT as for the other collection calls (6.2).
      callbackMethod: 'PUT',
      effect: 'credit',
      outcomeBy: 'payer',
      parse: (raw, ctx) => withoutPromptUnderMandate(payerBody(raw, ctx), ctx),
    }),
  },
  withdrawRoute('POST', '/collection/v1_0/requesttowithdraw', 1),
  // The specification says PUT, the provider's document POST (compat: 'provider'): both.
  withdrawRoute('PUT', '/collection/v2_0/requesttowithdraw', 2),
  withdrawRoute('POST', '/collection/v2_0/requesttowithdraw', 2),
  lookup('/collection/v1_0/requesttopay/{referenceId}', ['collection.requestToPay']),
  lookup('/collection/v1_0/requesttowithdraw/{referenceId}', [
    'collection.requestToWithdraw',
    'collection.requestToWithdrawV1',
  ]),
  {
    method: 'POST',
    path: '/collection/v1_0/requesttopay/{referenceId}/deliverynotification',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: deliveryNotification,
  },
];

function lookup(path: string, operations: CreateSpec['operation'][]): Route {
  return {
    method: 'GET',
    path,
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction(operations),
  };
}

/** Request to withdraw: v1 calls back by POST, v2 by PUT (MTN's documents, spec 4.10). */
function withdrawRoute(method: 'POST' | 'PUT', path: string, version: 1 | 2): Route {
  return {
    method,
    path,
    product: C,
    auth: 'basic-or-bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: version === 1 ? 'collection.requestToWithdrawV1' : 'collection.requestToWithdraw',
      callbackMethod: version === 1 ? 'POST' : 'PUT',
      effect: 'credit',
      outcomeBy: 'payer',
      parse: payerBody,
    }),
  };
}
