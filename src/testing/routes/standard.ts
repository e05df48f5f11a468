import { v4 as uuidv4 } from 'uuid';
import { callerOf, enforcedHostRefusal } from '../callback-hosts';
import { isDecimal, parseDecimal } from '../decimal';
import { invalidMm, json, rejectMm } from '../http';
import type { TxRecord } from '../ledger';
import { type PlannedOutcome, planForMsisdn } from '../outcomes';
import type { Route, RouteContext } from '../router';
import { tagField } from '../tagging';
import { hasForbiddenText, isAnyUuid, isEmail, isMsisdn, isUuidV4 } from '../validation';
import { checkInstitution, mmGuard, mmQueryRoutes } from './mm';
import { partnerField } from './partner-scope';
import { isHttpUrl } from './transactions';

/** The standard-style disbursement (spec 2.4, 4.6, 7.2, 8): every limit, 7.2 errors. */

interface Entry {
  readonly key: string;
  readonly value: string;
}

/** Party keys of spec 2.4, with what makes a value of that kind valid. */
const PARTY_KINDS: Readonly<Record<string, (value: string) => boolean>> = {
  accountid: isAnyUuid,
  msisdn: isMsisdn,
  identityalias: () => true,
  emailaddress: isEmail,
  walletid: (value) => /^\d+$/.test(value),
  consumerno: (value) => /^\d+$/.test(value),
};

interface ListRule {
  readonly min: number;
  readonly max: number;
  /** Max length of key and value (customData); parties need only a non-empty value. */
  readonly textMax?: number;
  readonly keys?: readonly string[];
}

/** An array of {key, value} (debitParty, creditParty, customData); undefined when absent. */
function entries(
  body: Record<string, unknown>,
  field: string,
  rule: ListRule,
): Entry[] | undefined {
  const raw = body[field];
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) invalidMm('FormatError', `${field} must be an array of {key, value}.`);
  if (raw.length < rule.min || raw.length > rule.max) {
    invalidMm('LengthError', `${field} must have ${rule.min} to ${rule.max} entries.`);
  }
  return raw.map((item: unknown, index) => {
    const name = `${field}[${index}]`;
    if (typeof item !== 'object' || item === null) {
      invalidMm('FormatError', `${name} must be {key, value}.`);
    }
    const { key, value } = item as Record<string, unknown>;
    if (key === undefined || value === undefined) {
      invalidMm('MandatoryValueNotSupplied', `${name} needs both key and value.`);
    }
    if (typeof key !== 'string' || typeof value !== 'string') {
      invalidMm('FormatError', `${name}.key and .value must be strings.`);
    }
    const max = rule.textMax ?? Number.POSITIVE_INFINITY;
    if (key.length < 1 || value.length < 1 || key.length > max || value.length > max) {
      const limit = rule.textMax === undefined ? 'non-empty' : `1 to ${rule.textMax} characters`;
      invalidMm('LengthError', `${name}.key and .value must be ${limit}.`);
    }
    if (rule.keys && !rule.keys.includes(key)) {
      invalidMm('FormatError', `${name}.key must be one of ${rule.keys.join(', ')}.`);
    }
    return { key, value };
  });
}

/** Optional restricted string with a maximum length. */
function restricted(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') invalidMm('FormatError', `${field} must be a string.`);
  if (value.length < 1 || value.length > max) {
    invalidMm('LengthError', `${field} must be 1 to ${max} characters.`);
  }
  if (hasForbiddenText(value)) {
    invalidMm('FormatError', `${field} must not contain ', &, <, > or control characters.`);
  }
  return value;
}

function amountOf(body: Record<string, unknown>): string {
  const value = body.amount;
  if (value === undefined) invalidMm('MandatoryValueNotSupplied', 'amount is required.');
  if (typeof value !== 'string') invalidMm('FormatError', 'amount must be a string.');
  if (value.length < 1 || value.length > 23) {
    invalidMm('LengthError', 'amount must be 1 to 23 characters.');
  }
  if (/^-/.test(value)) invalidMm('NegativeValue', 'amount must be positive.');
  if (!isDecimal(value) || parseDecimal(value).units <= 0n) {
    invalidMm('FormatError', 'amount must be a positive decimal such as "100" or "12.50".');
  }
  return value;
}

function currencyOf(body: Record<string, unknown>, accepted: string): string {
  const value = body.currency;
  if (value === undefined) invalidMm('MandatoryValueNotSupplied', 'currency is required.');
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) {
    invalidMm('FormatError', 'currency must be a three-letter code in capitals.');
  }
  if (value !== accepted)
    rejectMm(400, 'BusinessRule', 'CurrencyNotSupported', 'Currency not supported.');
  return value;
}

interface StandardBody {
  amount: string;
  currency: string;
  externalId: string;
  payerMessage?: string;
  payeeNote?: string;
  plan: PlannedOutcome;
}

function parseBody(text: string, ctx: RouteContext): { raw: unknown; parsed: StandardBody } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    invalidMm('FormatError', 'The body must be a JSON object.');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    invalidMm('FormatError', 'The body must be a JSON object.');
  }
  const body = raw as Record<string, unknown>;
  const reference = restricted(body, 'requestingOrganisationTransactionReference', 256);
  const debit = entries(body, 'debitParty', { min: 1, max: 10, keys: Object.keys(PARTY_KINDS) });
  if (!debit) invalidMm('MandatoryValueNotSupplied', 'debitParty is required.');
  // Spec 2.4: "first valid entry is used"; invalid entries are skipped, none valid is an error.
  const used = debit.filter((entry) => PARTY_KINDS[entry.key]?.(entry.value));
  if (used.length === 0) invalidMm('IdentifierError', 'debitParty has no valid entry.');
  const credit = entries(body, 'creditParty', { min: 1, max: 10, keys: ['accountid'] });
  const apiUser = ctx.options.apiUser.id.toLowerCase();
  if (credit?.some((entry) => entry.value.toLowerCase() !== apiUser)) {
    rejectMm(400, 'Authorisation', 'ClientAuthorisationError', 'creditParty must be the API user.');
  }
  const amount = amountOf(body);
  const currency = currencyOf(body, ctx.options.currency);
  const description = restricted(body, 'descriptionText', 160);
  const custom = entries(body, 'customData', { min: 0, max: 20, textMax: 256 });
  const ownNote = custom?.find((entry) => entry.key === 'ownnote')?.value;
  const msisdn = used.find((entry) => entry.key === 'msisdn')?.value;
  return {
    raw,
    parsed: {
      amount,
      currency,
      // Spec 2.4: a UUID is generated when the reference is omitted.
      externalId: reference ?? uuidv4(),
      ...(description !== undefined ? { payerMessage: description } : {}),
      ...(ownNote !== undefined ? { payeeNote: ownNote } : {}),
      plan: msisdn !== undefined ? planForMsisdn(msisdn, 'payer') : { kind: 'normal' },
    },
  };
}

/** The callback body (spec 6.2: PUT); the spec shows no payload, so it mirrors 2.5. */
function standardResult(tx: TxRecord): Record<string, unknown> {
  return {
    serverCorrelationId: tx.referenceId,
    amount: tx.amount,
    currency: tx.currency,
    ...(tx.externalId !== undefined ? { externalId: tx.externalId } : {}),
    status: tx.status,
    ...(tx.status === 'SUCCESSFUL' ? { financialTransactionId: tx.financialTransactionId } : {}),
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
  };
}

/** Headers, body, duplicate check; stored under the correlation id, answered 202 JSON. */
function standardDisbursement(ctx: RouteContext): Response {
  checkInstitution(ctx);
  const correlationId = ctx.headers.get('x-correlationid');
  if (correlationId === null || correlationId === '') {
    invalidMm('MandatoryValueNotSupplied', 'X-CorrelationID header is required.');
  }
  if (!isUuidV4(correlationId))
    invalidMm('FormatError', 'X-CorrelationID must be a UUID version 4.');
  const callbackUrl = ctx.headers.get('x-callback-url') || undefined;
  if (callbackUrl !== undefined && !isHttpUrl(callbackUrl)) {
    invalidMm('FormatError', 'X-Callback-Url must be an http(s) URL.');
  }
  const refusal = callbackUrl === undefined ? undefined : enforcedHostRefusal(ctx, callbackUrl);
  if (refusal !== undefined) invalidMm('GenericError', `INVALID_CALLBACK_URL_HOST: ${refusal}`);
  const { raw, parsed } = parseBody(ctx.text, ctx);
  if (ctx.ledger.has(correlationId)) {
    rejectMm(400, 'BusinessRule', 'DuplicateRequest', 'The X-CorrelationID was already used.');
  }
  const { plan, ...fields } = parsed;
  ctx.ledger.add(
    {
      ...fields,
      referenceId: correlationId,
      operation: 'collection.standardDisbursement',
      product: ctx.product,
      body: raw,
      callbackUrl,
      callbackMethod: 'PUT',
      createdBy: callerOf(ctx),
      ...partnerField(ctx),
      ...tagField(ctx.headers),
      plan,
      // The debit party pays the partner (spec 2.4: debitParty is the payer).
      effect: 'credit',
      render: standardResult,
    },
    ctx.now,
  );
  return json(202, {
    serverCorrelationId: correlationId,
    status: 'pending',
    notificationMethod: callbackUrl !== undefined ? 'callback' : 'polling',
  });
}

export const standardRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collection/v1.2/mm/Transactions/Type/Disbursement',
    product: 'collection',
    auth: 'bearer',
    targetEnvironment: 'ignored',
    handle: mmGuard(standardDisbursement),
  },
  ...mmQueryRoutes,
];
