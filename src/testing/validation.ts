// The client's own identification kinds and input rules (one rule everywhere).
import { IDENTIFICATION_TYPES as IDENTIFICATION_KINDS } from '../schemas/collection';
import * as rules from '../schemas/rules';
import { ID_RULES, MAX, minorUnitProblem } from '../schemas/rules';
import { isAmount } from './decimal';
import { badRequest, reject } from './http';
import type { Party } from './types';

const TEXT_RULE = "must not contain ', &, <, >, control or invisible format characters";

/** The identification types the client accepts (spec 2.3, 2.6, and the documents' `SRSSA`). */
export const IDENTIFICATION_TYPES: readonly string[] = IDENTIFICATION_KINDS;

/** Restricted-string rule: none of the characters MTN rejects in free text, nothing invisible. */
export const hasForbiddenText = rules.hasForbiddenText;

export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && rules.isEmail(value);
}

export function isMsisdn(value: unknown): value is string {
  return typeof value === 'string' && rules.isMsisdn(value);
}

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && rules.isUuidV4(value);
}

export function isAnyUuid(value: unknown): value is string {
  return typeof value === 'string' && rules.isAnyUuid(value);
}

/** The body must be a JSON object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return badRequest('The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** The amount, with its decimals against `currency` (and a cash transfer's original amount). */
export function amountField(body: Record<string, unknown>): string {
  const value = body.amount;
  if (value === undefined) return badRequest('amount is required.');
  if (typeof value === 'string' && value.length > MAX.amount) {
    return badRequest(`amount must be at most ${MAX.amount} characters.`);
  }
  if (!isAmount(value)) {
    return badRequest('amount must be a positive decimal string such as "100" or "12.50".');
  }
  for (const [field, currency] of AMOUNT_PAIRS) {
    const [sum, code] = [body[field], body[currency]];
    const tooFine =
      typeof sum === 'string' && typeof code === 'string' && minorUnitProblem(sum, code);
    if (tooFine) return badRequest(`${field} ${tooFine}.`);
  }
  return value;
}

/** The amounts of a body and their currencies, as the client checks them (a cash transfer has two). */
const AMOUNT_PAIRS = [
  ['amount', 'currency'],
  ['originalAmount', 'originalCurrency'],
] as const;

/**
 * `amountField` checks decimals against the body's `currency`. Malformed currency: 400. A well-formed code other than the account's currency: 500
 * INVALID_CURRENCY, as MTN's own document shows ("Currency not supported.").
 */
export function currencyField(body: Record<string, unknown>, accepted: string): string {
  const value = body.currency;
  if (value === undefined) return badRequest('currency is required.');
  if (typeof value !== 'string' || !rules.isCurrencyCode(value)) {
    return badRequest('currency must be an ISO 4217 code of three capitals.');
  }
  if (value !== accepted) return reject(500, 'INVALID_CURRENCY', 'Currency not supported.');
  return value;
}

const PARTY_RULES = { MSISDN: ID_RULES.msisdn, EMAIL: ID_RULES.email, PARTY_CODE: ID_RULES.uuid };

export function partyField(body: Record<string, unknown>, field: string): Party {
  const value = body[field];
  if (value === undefined) return badRequest(`${field} is required.`);
  if (typeof value !== 'object' || value === null) {
    return badRequest(`${field} must be an object {partyIdType, partyId}.`);
  }
  const { partyIdType, partyId } = value as Record<string, unknown>;
  if (partyIdType !== 'MSISDN' && partyIdType !== 'EMAIL' && partyIdType !== 'PARTY_CODE') {
    return badRequest(`${field}.partyIdType must be MSISDN, EMAIL or PARTY_CODE.`);
  }
  if (typeof partyId !== 'string') return badRequest(`${field}.partyId must be a string.`);
  const [valid, , max] = PARTY_RULES[partyIdType];
  if (partyId.length > max) {
    return badRequest(`${field}.partyId must be at most ${max} characters.`);
  }
  if (!valid(partyId)) return badRequest(`${field}.partyId is not a valid ${partyIdType}.`);
  return { partyIdType, partyId };
}

/** Optional free text: externalId (256 characters), payerMessage and payeeNote (160). */
export function textField(
  body: Record<string, unknown>,
  field: 'externalId' | 'payerMessage' | 'payeeNote',
): string | undefined {
  return field === 'externalId' ? restrictedText(body, field, MAX.text) : noteField(body, field);
}

/** An optional restricted text of at most `max` characters. */
function restrictedText(
  body: Record<string, unknown>,
  field: string,
  max: number,
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return badRequest(`${field} must be a string.`);
  if (value.length > max) return badRequest(`${field} must be at most ${max} characters.`);
  if (rules.hasForbiddenText(value)) return badRequest(`${field} ${TEXT_RULE}.`);
  return value;
}

/** externalId, payerMessage and payeeNote, each only when given. */
export function optionalTexts(body: Record<string, unknown>): {
  externalId?: string;
  payerMessage?: string;
  payeeNote?: string;
} {
  const externalId = textField(body, 'externalId');
  const payerMessage = textField(body, 'payerMessage');
  const payeeNote = textField(body, 'payeeNote');
  return {
    ...(externalId !== undefined ? { externalId } : {}),
    ...(payerMessage !== undefined ? { payerMessage } : {}),
    ...(payeeNote !== undefined ? { payeeNote } : {}),
  };
}

/** An optional string field; `check` adds a format rule. `label` names it in the message. */
export function optionalString(
  body: Record<string, unknown>,
  field: string,
  check?: { test: (value: string) => boolean; rule: string },
  label = field,
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return badRequest(`${label} must be a string.`);
  if (value.length > MAX.text)
    return badRequest(`${label} must be at most ${MAX.text} characters.`);
  if (rules.hasInvisible(value)) {
    return badRequest(`${label} must not contain control or invisible format characters.`);
  }
  if (check && !check.test(value)) return badRequest(`${label} must be ${check.rule}.`);
  return value;
}

/** A required, non-empty string field. */
export function requiredString(
  body: Record<string, unknown>,
  field: string,
  check?: { test: (value: string) => boolean; rule: string },
): string {
  const value = optionalString(body, field, check);
  if (value === undefined || value === '') return badRequest(`${field} is required.`);
  return value;
}

export function uuidField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined) return badRequest(`${field} is required.`);
  if (!isAnyUuid(value)) return badRequest(`${field} must be a UUID.`);
  return value;
}

/** Optional free text under the rules of payerMessage / payeeNote (160 characters, no markup). */
export function noteField(body: Record<string, unknown>, field: string): string | undefined {
  return restrictedText(body, field, MAX.note);
}

/**
 * An optional whole number of seconds, > 0: a JSON integer or a string of digits (MTN's
 * documents type the same kind of field both ways).
 */
export function secondsField(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds <= 0) {
    return badRequest(`${field} must be a positive whole number of seconds.`);
  }
  return seconds;
}
