import { isAmount } from '../decimal';
import type { TxRecord } from '../ledger';
import { resultBody } from '../results';
import type { Route, RouteContext } from '../router';
import {
  amountField,
  currencyField,
  IDENTIFICATION_TYPES,
  isEmail,
  isMsisdn,
  objectBody,
  optionalString,
  optionalTexts,
  partyField,
  requiredString,
} from '../validation';
import {
  activeRoute,
  balanceInCurrencyRoute,
  balanceRoute,
  basicUserInfoRoute,
  tokenRoute,
  userInfoRoute,
} from './common';
import { transferBody } from './disbursement';
import { createTransaction, lookupTransaction, type ParsedCreate } from './transactions';

const R = 'remittance' as const;

const checks = {
  amount: { test: isAmount, rule: 'a positive decimal string such as "100" or "12.50"' },
  currency: {
    test: (v: string) => /^[A-Z]{3}$/.test(v),
    rule: 'an ISO 4217 code of three capitals',
  },
  idType: {
    test: (v: string) => IDENTIFICATION_TYPES.includes(v),
    rule: `one of ${IDENTIFICATION_TYPES.join(', ')}`,
  },
  email: { test: isEmail, rule: 'an e-mail address' },
  msisdn: { test: isMsisdn, rule: 'an E.164 MSISDN' },
};

type Check = { test: (value: string) => boolean; rule: string };

/** Optional payer details of spec 2.3, kept and shown when given. */
const PAYER_DETAILS: readonly (readonly [string, Check?])[] = [
  ['payerIdentity'],
  ['payerFirstName'],
  ['payerSurName'],
  ['payerLanguageCode'],
  ['payerEmail', checks.email],
  ['payerMsisdn', checks.msisdn],
  ['payerGender'],
];

/** Cash transfer body (spec 2.3). currency and payee are optional here. */
function cashTransferBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  const amount = amountField(body);
  const currency =
    body.currency === undefined ? ctx.options.currency : currencyField(body, ctx.options.currency);
  const payee = body.payee === undefined ? undefined : partyField(body, 'payee');
  const texts = optionalTexts(body);
  const cash: Record<string, string> = {
    originalAmount: requiredString(body, 'originalAmount', checks.amount),
    originalCurrency: requiredString(body, 'originalCurrency', checks.currency),
    orginatingCountry: requiredString(body, 'orginatingCountry'),
    payerIdentificationType: requiredString(body, 'payerIdentificationType', checks.idType),
    payerIdentificationNumber: requiredString(body, 'payerIdentificationNumber'),
  };
  for (const [field, check] of PAYER_DETAILS) {
    const value = optionalString(body, field, check);
    if (value !== undefined) cash[field] = value;
  }
  return {
    amount,
    currency,
    ...(payee ? { payee } : {}),
    ...texts,
    extra: cash,
    render: cashTransferResult,
  };
}

/** TransferResult plus the cash-transfer fields it was given (spec: the body is not shown). */
function cashTransferResult(tx: TxRecord): Record<string, unknown> {
  const { status, reason, ...rest } = resultBody(tx);
  return { ...rest, ...tx.extra, status, ...(reason ? { reason } : {}) };
}

/** Remittance: money goes out of the partner's remittance account. */
export const remittanceRoutes: readonly Route[] = [
  tokenRoute(R),
  balanceRoute(R),
  balanceInCurrencyRoute(R),
  activeRoute(R),
  // MTN's remittance document has basic user info by MSISDN only.
  basicUserInfoRoute(R),
  {
    method: 'POST',
    path: '/remittance/v1_0/transfer',
    product: R,
    // Spec 4.2: Authorization (optional). A given one must be valid.
    auth: 'bearer-optional',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'remittance.transfer',
      // The spec is silent; POST, as for the cash transfer, the other remittance call.
      callbackMethod: 'POST',
      effect: 'debit',
      parse: transferBody,
    }),
  },
  {
    method: 'POST',
    path: '/remittance/v2_0/cashtransfer',
    product: R,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'remittance.cashTransfer',
      // Spec 6.2 names the method inconsistently; POST, as for the remittance transfer.
      callbackMethod: 'POST',
      effect: 'debit',
      parse: cashTransferBody,
    }),
  },
  lookup('/remittance/v1_0/transfer/{referenceId}', 'remittance.transfer'),
  lookup('/remittance/v2_0/cashtransfer/{referenceId}', 'remittance.cashTransfer'),
  userInfoRoute(R),
];

function lookup(path: string, operation: 'remittance.transfer' | 'remittance.cashTransfer'): Route {
  return {
    method: 'GET',
    path,
    product: R,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction([operation]),
  };
}
