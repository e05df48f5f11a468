import { badRequest } from '../http';
import type { TxRecord } from '../ledger';
import type { Route, RouteContext } from '../router';
import {
  amountField,
  currencyField,
  isMsisdn,
  noteField,
  objectBody,
  optionalString,
  textField,
} from '../validation';
import { createTransaction, lookupTransaction, type ParsedCreate } from './transactions';

/**
 * Payments (MTN's collection document: bills and air-time top-ups through the partner
 * gateway). They settle like transfers: the partner's collection account pays (a debit,
 * funds checked), and an MSISDN `customerReference` decides the outcome by the magic
 * numbers, as a transfer's payee does.
 */

const C = 'collection' as const;

/** Optional plain strings of CreatePayments. */
const PLAIN = ['serviceProviderUserName', 'couponId', 'productId', 'productOfferingId'] as const;

/** CreatePayments body: `money {amount, currency}` required; the rest optional. */
function paymentBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  if (body.money === undefined) return badRequest('money is required.');
  const money = objectBody(body.money);
  const amount = amountField(money);
  const currency = currencyField(money, ctx.options.currency);
  const customerReference = optionalString(body, 'customerReference');
  for (const field of PLAIN) optionalString(body, field);
  const externalId = textField({ externalId: body.externalTransactionId }, 'externalId');
  noteField(body, 'receiverMessage');
  noteField(body, 'senderNote');
  const retries = body.maxNumberOfRetries;
  if (retries !== undefined && (!Number.isSafeInteger(retries) || (retries as number) < 0)) {
    return badRequest('maxNumberOfRetries must be a whole number >= 0.');
  }
  if (body.includeSenderCharges !== undefined && typeof body.includeSenderCharges !== 'boolean') {
    return badRequest('includeSenderCharges must be a boolean.');
  }
  const payee =
    customerReference !== undefined && isMsisdn(customerReference)
      ? { partyIdType: 'MSISDN' as const, partyId: customerReference }
      : undefined;
  return {
    amount,
    currency,
    ...(payee ? { payee } : {}),
    ...(externalId !== undefined ? { externalId } : {}),
    render: paymentResult,
  };
}

/** PaymentResult: referenceId, status, financialTransactionId once SUCCESSFUL, reason. */
function paymentResult(tx: TxRecord): Record<string, unknown> {
  return {
    referenceId: tx.referenceId,
    status: tx.status,
    ...(tx.status === 'SUCCESSFUL' ? { financialTransactionId: tx.financialTransactionId } : {}),
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
  };
}

export const paymentRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collection/v2_0/payment',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'collection.createPayment',
      callbackMethod: 'PUT',
      effect: 'debit',
      parse: paymentBody,
    }),
  },
  {
    method: 'GET',
    path: '/collection/v2_0/payment/{referenceId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction(['collection.createPayment']),
  },
];
