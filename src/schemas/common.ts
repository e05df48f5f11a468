import * as z from 'zod/mini';
import { lazy } from './lazy';
import { kindOf } from './validate';

/** UUID version 4, the only reference-id format the service accepts (spec 8). */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The one MSISDN rule (client, simulator and docs alike): ITU-T E.164 as the service
 * takes it, country code first, 5 to 15 digits, no leading zero, and nothing else. A
 * leading `+`, spaces or dashes are refused rather than stripped: the SDK never sends a
 * value other than the one it was given (see docs/assumptions.md).
 */
export const MSISDN = /^[1-9]\d{4,14}$/;
/** The message of every MSISDN check. */
export const MSISDN_RULE =
  'must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999)';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** Characters MTN documents as rejected in request bodies (apostrophe), plus markup and controls. */
const TEXT_FORBIDDEN = /['&<>\p{Cc}]/u;
const plain = lazy(() =>
  z.refine<string>((v) => !TEXT_FORBIDDEN.test(v), {
    error: "must not contain ', &, <, > or control characters",
  }),
);

/**
 * A whole number (a safe integer) of at least `min`, `what` naming its unit in the message.
 * Checked with refinements: zod's `int()` brings its number formats (~400 bytes gzipped).
 */
export const wholeNumber = (what: string, min: 0 | 1) =>
  z.number().check(
    z.refine(Number.isSafeInteger, { error: `must be a whole number${what}`, abort: true }),
    z.refine((v) => v >= min, { error: `must be ${min} or more` }),
  );

/** A string of a particular kind; given something else, the message names both kinds. */
const stringOf = (what: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? 'is required' : `must be ${what}, got ${kindOf(issue.input)}`,
  });

export const uuidV4 = lazy(() =>
  stringOf('a UUID version 4 string').check(
    z.regex(UUID_V4, { error: 'must be a UUID version 4' }),
  ),
);

/** Amounts are strings (spec 2.2): a positive decimal such as "100" or "12.50". */
export const amount = lazy(() =>
  stringOf('a decimal string like "10.50"').check(
    z.regex(DECIMAL, {
      error: 'must be a positive decimal string such as "100" or "12.50"',
      abort: true,
    }),
    z.refine((v) => Number(v) > 0, { error: 'must be greater than zero' }),
  ),
);

export const currency = lazy(() =>
  stringOf('a currency code like "EUR"').check(
    z.regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code of three capitals' }),
  ),
);

export const email = lazy(() =>
  z.string().check(z.regex(EMAIL, { error: 'must be an e-mail address' })),
);

export const msisdn = lazy(() => z.string().check(z.regex(MSISDN, { error: MSISDN_RULE })));

/** Restricted strings of the standard-style interface (spec 2.4) and free texts. */
export const plainText = lazy(() => z.string().check(plain()));

/** externalId: free text, but the service rejects some characters in it. */
export const externalId = lazy(() => z.string().check(plain()));

/** payerMessage / payeeNote: history texts, at most 160 characters (MTN answers 400 beyond). */
export const note = lazy(() =>
  z.string().check(z.maxLength(160, { error: 'must be at most 160 characters' }), plain()),
);

export const partyIdType = lazy(() =>
  z.enum(['MSISDN', 'EMAIL', 'PARTY_CODE'] satisfies PartyIdType[]),
);

const partyIdRules = {
  MSISDN: [MSISDN, MSISDN_RULE],
  EMAIL: [EMAIL, 'must be an e-mail address'],
  PARTY_CODE: [ANY_UUID, 'must be a UUID'],
} as const;

/** Party (spec 2.1): partyId validated per partyIdType. */
export const party = lazy(() =>
  z.strictObject({ partyIdType: partyIdType(), partyId: z.string() }).check(
    z.superRefine((value, ctx) => {
      const [pattern, message] = partyIdRules[value.partyIdType];
      if (!pattern.test(value.partyId)) {
        ctx.issues.push({ code: 'custom', message, input: value.partyId, path: ['partyId'] });
      }
    }),
  ),
);

/** Who pays or is paid. */
export interface Party {
  partyIdType: PartyIdType;
  /** Checked against `partyIdType`: E.164 digits, an e-mail address, or a UUID. */
  partyId: string;
}
/** The kinds of party id: an MSISDN (digits only), an e-mail address, or a party code (UUID). */
export type PartyIdType = 'MSISDN' | 'EMAIL' | 'PARTY_CODE';

export type { Reason, StatusLike } from './tolerant';

/** SUCCESSFUL and FAILED are final: nothing changes a transaction after them. */
export function isFinal(result: { status?: unknown } | string): boolean {
  const status = typeof result === 'string' ? result : result.status;
  return status === 'SUCCESSFUL' || status === 'FAILED';
}
