import { compare, parseDecimal, subtract } from '../decimal';
import type { Ledger, TxRecord } from '../ledger';
import type { Route, RouteContext } from '../router';
import type { Reason } from '../types';
import {
  amountField,
  currencyField,
  objectBody,
  optionalTexts,
  partyField,
  uuidField,
} from '../validation';
import { balanceRoute, basicUserInfoRoute, tokenRoute } from './common';
import { createTransaction, lookupTransaction, type ParsedCreate } from './transactions';

/** Transfer and deposit body (spec 2.2). */
export function transferBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  return {
    amount: amountField(body),
    currency: currencyField(body, ctx.options.currency),
    payee: partyField(body, 'payee'),
    ...optionalTexts(body),
  };
}

/** Refund body (spec 2.2): no payee; the refunded transaction's payee is shown, if known. */
function refundBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  const amount = amountField(body);
  const currency = currencyField(body, ctx.options.currency);
  const referenceIdToRefund = uuidField(body, 'referenceIdToRefund');
  const payee = ctx.ledger.get(referenceIdToRefund)?.payee;
  return {
    amount,
    currency,
    ...(payee ? { payee } : {}),
    ...optionalTexts(body),
    extra: { referenceIdToRefund },
  };
}

/** Consent bodies (spec 2.2): `{amount}` only; the payee is the consenting account holder. */
function consentBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const amount = amountField(objectBody(raw));
  const msisdn = ctx.token?.kind === 'consent' ? ctx.token.msisdn : '';
  return {
    amount,
    currency: ctx.options.currency,
    payee: { partyIdType: 'MSISDN', partyId: msisdn },
  };
}

const notAllowed = (message: string): Reason => ({ code: 'NOT_ALLOWED', message });

/**
 * A refund settles FAILED with NOT_ALLOWED unless the refunded transaction exists, is
 * SUCCESSFUL, is not itself a refund, has the same currency, and the refunds so far
 * plus this one do not exceed its amount.
 */
function refundCheck(tx: TxRecord, ledger: Ledger): Reason | undefined {
  const target = ledger.get(tx.extra?.referenceIdToRefund ?? '');
  if (!target) return notAllowed('The transaction to refund was not found.');
  if (target.operation === 'disbursement.refund') return notAllowed('A refund cannot be refunded.');
  if (target.status !== 'SUCCESSFUL')
    return notAllowed('The transaction to refund is not successful.');
  if (target.currency !== tx.currency)
    return notAllowed('The currency differs from the refunded transaction.');
  const refunded = ledger
    .all()
    .filter((other) => other.operation === 'disbursement.refund' && other.status === 'SUCCESSFUL')
    .filter(
      (other) =>
        other.extra?.referenceIdToRefund?.toLowerCase() === target.referenceId.toLowerCase(),
    );
  const left = refunded.reduce(
    (rest, other) => subtract(rest, parseDecimal(other.amount)),
    parseDecimal(target.amount),
  );
  if (compare(parseDecimal(tx.amount), left) > 0) {
    return notAllowed('The amount exceeds what is left to refund.');
  }
  return undefined;
}

const D = 'disbursement' as const;

/**
 * The Disbursement route table. Adding an endpoint is one entry here plus, at most, one
 * small body parser above. Every disbursement moves money out of the partner's account
 * (a refund too: "from the owner's account to a payee account", MTN's document).
 */
export const disbursementRoutes: readonly Route[] = [
  tokenRoute(D),
  balanceRoute(D),
  basicUserInfoRoute(D),
  {
    method: 'POST',
    path: '/disbursement/v1_0/transfer',
    product: D,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'disbursement.transfer',
      callbackMethod: 'PUT',
      effect: 'debit',
      parse: transferBody,
    }),
  },
  {
    method: 'POST',
    path: '/disbursement/v1_0/deposit',
    product: D,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'disbursement.deposit',
      callbackMethod: 'POST',
      effect: 'debit',
      parse: transferBody,
    }),
  },
  {
    method: 'POST',
    path: '/disbursement/v1_0/refund',
    product: D,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'disbursement.refund',
      callbackMethod: 'POST',
      effect: 'debit',
      parse: refundBody,
      // Decided by the refund rules and the balance only, not by the shown payee.
      outcomeBy: 'none',
      check: refundCheck,
    }),
  },
  {
    method: 'POST',
    path: '/disbursement/oauth2/v1_0/transfer',
    product: D,
    auth: 'consent',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'disbursement.transferWithConsent',
      callbackMethod: 'PUT',
      effect: 'debit',
      parse: consentBody,
    }),
  },
  {
    method: 'POST',
    path: '/disbursement/oauth2/v1_0/merchantpayment',
    product: D,
    auth: 'consent',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'disbursement.merchantPaymentWithConsent',
      callbackMethod: 'PUT',
      effect: 'debit',
      parse: consentBody,
    }),
  },
  lookup('/disbursement/v1_0/transfer/{referenceId}', [
    'disbursement.transfer',
    'disbursement.transferWithConsent',
  ]),
  lookup('/disbursement/v1_0/deposit/{referenceId}', ['disbursement.deposit']),
  lookup('/disbursement/v1_0/refund/{referenceId}', ['disbursement.refund']),
  {
    method: 'GET',
    path: '/disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/{referenceId}',
    product: D,
    auth: 'basic-or-bearer',
    targetEnvironment: 'optional',
    handle: lookupTransaction(['disbursement.merchantPaymentWithConsent'], {
      withReferenceId: true,
    }),
  },
];

function lookup(path: string, operations: Parameters<typeof lookupTransaction>[0]): Route {
  return {
    method: 'GET',
    path,
    product: D,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction(operations),
  };
}
