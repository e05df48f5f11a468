import { validate as isUuid, version as uuidVersion } from 'uuid';
// The client's own identification kinds and MSISDN rule (one rule everywhere).
import { IDENTIFICATION_TYPES as IDENTIFICATION_KINDS } from '../schemas/collection';
import { MSISDN } from '../schemas/common';
import { isAmount } from './decimal';
import { badRequest, reject } from './http';
import type { Party } from './types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Characters MTN documents as rejected in bodies (apostrophe), plus markup and controls. */
const TEXT_FORBIDDEN = /['&<>\p{Cc}]/u;
/** MTN rejects payerMessage / payeeNote longer than this. */
const TEXT_MAX = 160;

/** The identification types the client accepts (spec 2.3, 2.6, and the documents' `SRSSA`). */
export const IDENTIFICATION_TYPES: readonly string[] = IDENTIFICATION_KINDS;

/** Restricted-string rule: none of the characters MTN rejects in free text. */
export function hasForbiddenText(value: string): boolean {
  return TEXT_FORBIDDEN.test(value);
}

export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && EMAIL.test(value);
}

export function isMsisdn(value: unknown): value is string {
  return typeof value === 'string' && MSISDN.test(value);
}

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value) && uuidVersion(value) === 4;
}

export function isAnyUuid(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value);
}

/** The body must be a JSON object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return badRequest('The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

export function amountField(body: Record<string, unknown>): string {
  const value = body.amount;
  if (value === undefined) return badRequest('amount is required.');
  if (!isAmount(value)) {
    return badRequest('amount must be a positive decimal string such as "100" or "12.50".');
  }
  return value;
}

/**
 * Malformed currency: 400. A well-formed code other than the account's currency: 500
 * INVALID_CURRENCY, as MTN's own document shows ("Currency not supported.").
 */
export function currencyField(body: Record<string, unknown>, accepted: string): string {
  const value = body.currency;
  if (value === undefined) return badRequest('currency is required.');
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) {
    return badRequest('currency must be an ISO 4217 code of three capitals.');
  }
  if (value !== accepted) return reject(500, 'INVALID_CURRENCY', 'Currency not supported.');
  return value;
}

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
  const valid =
    partyIdType === 'MSISDN'
      ? isMsisdn(partyId)
      : partyIdType === 'EMAIL'
        ? EMAIL.test(partyId)
        : isAnyUuid(partyId);
  if (!valid) return badRequest(`${field}.partyId is not a valid ${partyIdType}.`);
  return { partyIdType, partyId };
}

/** Optional free text (externalId, payerMessage, payeeNote). */
export function textField(
  body: Record<string, unknown>,
  field: 'externalId' | 'payerMessage' | 'payeeNote',
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return badRequest(`${field} must be a string.`);
  if (field !== 'externalId' && value.length > TEXT_MAX) {
    return badRequest(`${field} must be at most ${TEXT_MAX} characters.`);
  }
  if (TEXT_FORBIDDEN.test(value)) {
    return badRequest(`${field} must not contain ', &, <, > or control characters.`);
  }
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
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return badRequest(`${field} must be a string.`);
  if (value.length > TEXT_MAX)
    return badRequest(`${field} must be at most ${TEXT_MAX} characters.`);
  if (TEXT_FORBIDDEN.test(value)) {
    return badRequest(`${field} must not contain ', &, <, > or control characters.`);
  }
  return value;
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
