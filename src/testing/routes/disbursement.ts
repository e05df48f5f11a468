import { compare, parseDecimal, subtract } from '../decimal';
import { isRefund } from '../kinds';
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
import {
  activeRoute,
  balanceInCurrencyRoute,
  balanceRoute,
  basicUserInfoByIdRoute,
  tokenRoute,
  userInfoRoute,
} from './common';
import { ownTransaction } from './partner-scope';
import {
  type CreateSpec,
  createTransaction,
  lookupTransaction,
  type ParsedCreate,
} from './transactions';

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
  const payee = ownTransaction(ctx, referenceIdToRefund)?.payee;
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
  if (isRefund(target.operation)) return notAllowed('A refund cannot be refunded.');
  if (target.amount === undefined) return notAllowed('The transaction to refund moved no money.');
  if (target.status !== 'SUCCESSFUL')
    return notAllowed('The transaction to refund is not successful.');
  if (target.currency !== tx.currency)
    return notAllowed('The currency differs from the refunded transaction.');
  const refunded = ledger
    .all()
    .filter((other) => isRefund(other.operation) && other.status === 'SUCCESSFUL')
    .filter(
      (other) =>
        other.extra?.referenceIdToRefund?.toLowerCase() === target.referenceId.toLowerCase(),
    );
  const left = refunded.reduce(
    (rest, other) => subtract(rest, parseDecimal(other.amount ?? '0')),
    parseDecimal(target.amount),
  );
  if (compare(parseDecimal(tx.amount ?? '0'), left) > 0) {
    return notAllowed('The amount exceeds what is left to refund.');
  }
  return undefined;
}

const D = 'disbursement' as const;

/** Deposit (v1: callback POST, spec 4.4; v2: callback PUT, MTN's document). */
const depositSpec = (version: 1 | 2): CreateSpec => ({
  operation: version === 1 ? 'disbursement.deposit' : 'disbursement.depositV2',
  callbackMethod: version === 1 ? 'POST' : 'PUT',
  effect: 'debit',
  parse: transferBody,
});

/** Refund (v1: callback POST, spec 4.5; v2: callback PUT, MTN's document). */
const refundSpec = (version: 1 | 2): CreateSpec => ({
  operation: version === 1 ? 'disbursement.refund' : 'disbursement.refundV2',
  callbackMethod: version === 1 ? 'POST' : 'PUT',
  effect: 'debit',
  parse: refundBody,
  // Decided by the refund rules and the balance only, not by the shown payee.
  outcomeBy: 'none',
  check: refundCheck,
});

function creating(path: string, spec: CreateSpec): Route {
  return {
    method: 'POST',
    path,
    product: D,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction(spec),
  };
}

/**
 * The Disbursement route table. Adding an endpoint is one entry here plus, at most, one
 * small body parser above. Every disbursement moves money out of the partner's account
 * (a refund too: "from the owner's account to a payee account", MTN's document).
 */
export const disbursementRoutes: readonly Route[] = [
  tokenRoute(D),
  balanceRoute(D),
  balanceInCurrencyRoute(D),
  basicUserInfoByIdRoute(D),
  activeRoute(D),
  userInfoRoute(D),
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
  creating('/disbursement/v1_0/deposit', depositSpec(1)),
  creating('/disbursement/v2_0/deposit', depositSpec(2)),
  creating('/disbursement/v1_0/refund', refundSpec(1)),
  creating('/disbursement/v2_0/refund', refundSpec(2)),
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
  // The v2 operations are looked up at the v1 paths (MTN's documents have no v2 lookups).
  lookup('/disbursement/v1_0/deposit/{referenceId}', [
    'disbursement.deposit',
    'disbursement.depositV2',
  ]),
  lookup('/disbursement/v1_0/refund/{referenceId}', [
    'disbursement.refund',
    'disbursement.refundV2',
  ]),
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
