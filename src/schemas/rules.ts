/*
 * The input rules the client and the simulator share, with no zod in them: one function
 * per rule, so the SDK checks a value the same way wherever it is sent or received.
 *
 * Every rule bounds the length before a pattern is run, and every pattern here is linear
 * (no two unbounded quantifiers that can match the same characters side by side), so a
 * hostile input costs no more than reading it (test/unit/input-bounds.test.ts).
 * docs/assumptions.md V4, V17-V20 say which bounds and why.
 */

/** Longest of each kind, in characters (docs/assumptions.md V17). */
export const MAX = {
  /** E.164: at most 15 digits. */
  msisdn: 15,
  /** RFC 5321's longest forward path less its brackets. */
  email: 254,
  /** A UUID's canonical form. */
  uuid: 36,
  /** Spec 8: the standard-style amount is 1 to 23 characters; the SDK applies it to every amount. */
  amount: 23,
  /** Spec 8: identifiers, references and customData values are at most 256 characters. */
  text: 256,
  /** Spec 8: descriptionText (payerMessage) is at most 160 characters; MTN answers 400 beyond. */
  note: 160,
} as const;

/** UUID version 4, the only reference-id format the service accepts (spec 8). */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ITU-T E.164 as the service takes it: country code first, 5 to 15 digits, no leading zero. */
const MSISDN = /^[1-9]\d{4,14}$/;
/** `local@label.label`: the labels exclude the dot, so a domain splits one way only. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;
/** Controls and format characters (bidi overrides, zero-width): invisible in an SMS. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
/** What MTN rejects in restricted strings (apostrophe), markup, and invisible characters. */
const TEXT_FORBIDDEN = /['&<>\p{Cc}\p{Cf}]/u;

/** The one MSISDN rule: digits only, country code first, 5 to 15 of them, no leading zero. */
export function isMsisdn(value: string): boolean {
  return value.length <= MAX.msisdn && MSISDN.test(value);
}

/** The message of every MSISDN check. */
export const MSISDN_RULE =
  'must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999)';

export function isEmail(value: string): boolean {
  return value.length <= MAX.email && EMAIL.test(value);
}

export function isAnyUuid(value: string): boolean {
  return value.length === MAX.uuid && ANY_UUID.test(value);
}

export function isUuidV4(value: string): boolean {
  return value.length === MAX.uuid && UUID_V4.test(value);
}

/** A decimal string without sign or exponent, of at most 23 characters. */
export function isDecimal(value: string): boolean {
  return value.length <= MAX.amount && DECIMAL.test(value);
}

export function isCurrencyCode(value: string): boolean {
  return value.length === 3 && CURRENCY.test(value);
}

/** `'`, `&`, `<`, `>`, a control or a format character: refused in restricted free text. */
export function hasForbiddenText(value: string): boolean {
  return TEXT_FORBIDDEN.test(value);
}

/** A control or a format character (U+200B, U+202E, ...): refused in any free text. */
export function hasInvisible(value: string): boolean {
  return INVISIBLE.test(value);
}

/** How an identifier of a kind is checked: its rule, the rule's words, its longest form. */
export type IdRule = readonly [test: (value: string) => boolean, message: string, max: number];
/** The identifier kinds every check shares (MSISDN, e-mail, UUID). */
export const ID_RULES = {
  msisdn: [isMsisdn, MSISDN_RULE, MAX.msisdn],
  email: [isEmail, 'must be an e-mail address', MAX.email],
  uuid: [isAnyUuid, 'must be a UUID', MAX.uuid],
} as const satisfies Record<string, IdRule>;

/** The message of the restricted-text rule. */
export const TEXT_RULE =
  "must not contain ', &, <, >, control characters or invisible format characters (bidi overrides, zero-width)";

/**
 * ISO 4217 currencies whose minor unit is not 2 decimals. Every other code, known or not,
 * takes 2 (docs/assumptions.md V19): a table rather than Intl, whose CLDR digits differ
 * from ISO 4217 for some codes (IQD, LAK, RSD, ...) and from one engine's data to another.
 */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'
      .split(' ')
      .map((code) => [code, 0]),
  ),
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((code) => [code, 3])),
  CLF: 4,
  UYW: 4,
};

/** How many decimals an amount in `currency` may have (ISO 4217's minor unit; 2 by default). */
export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/**
 * Why `amount` has too many decimals for `currency`, or undefined when it fits (or when
 * either is malformed: their own rules say so).
 */
export function minorUnitProblem(amount: string, currency: string): string | undefined {
  if (!isDecimal(amount) || !isCurrencyCode(currency)) return undefined;
  const dot = amount.indexOf('.');
  const decimals = dot < 0 ? 0 : amount.length - dot - 1;
  const allowed = minorUnits(currency);
  if (decimals <= allowed) return undefined;
  return allowed === 0
    ? `must be a whole number for ${currency}: it has no minor unit`
    : `must have at most ${allowed} decimals for ${currency}`;
}
