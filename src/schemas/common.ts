import * as z from 'zod/mini';
import { lazy } from './lazy';
import {
  hasForbiddenText,
  hasInvisible,
  ID_RULES,
  type IdRule,
  isCurrencyCode,
  isDecimal,
  isEmail,
  isMsisdn,
  isUuidV4,
  MAX,
  MSISDN_RULE,
  minorUnitProblem,
  TEXT_RULE,
} from './rules';
import type { PartyIdType } from './tolerant';
import { kindOf } from './validate';

export { ID_RULES, type IdRule, MSISDN_RULE, UUID_V4 } from './rules';

/** A length bound, checked first: nothing after it runs on a longer value. */
export const atMost = (max: number, what = 'characters') =>
  z.maxLength(max, { error: `must be at most ${max} ${what}`, abort: true });
/** A rule of rules.ts as a zod check. */
const rule = (test: (value: string) => boolean, error: string) =>
  z.refine<string>(test, { error, abort: true });
const plain = lazy(() => rule((v) => !hasForbiddenText(v), TEXT_RULE));

/**
 * A whole number (a safe integer) of at least `min`, `what` naming its unit in the message.
 * Checked with refinements, not zod's `int()`, which brings its number formats into the
 * bundle: guarded by the bench target "main entry <= 45 KB min+gzip".
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
  stringOf('a UUID version 4 string').check(rule(isUuidV4, 'must be a UUID version 4')),
);

/**
 * Amounts are strings (spec 2.2): a positive decimal such as "100" or "12.50", of at
 * most 23 characters (spec 8). Its decimals against its currency: `minorUnitsOf`.
 */
export const amount = lazy(() =>
  stringOf('a decimal string like "10.50"').check(
    atMost(MAX.amount),
    rule(isDecimal, 'must be a positive decimal string such as "100" or "12.50"'),
    z.refine((v) => Number(v) > 0, { error: 'must be greater than zero' }),
  ),
);

export const currency = lazy(() =>
  stringOf('a currency code like "EUR"').check(
    rule(isCurrencyCode, 'must be an ISO 4217 code of three capitals'),
  ),
);

/**
 * An object's amounts against their currencies' minor units (ISO 4217: none for UGX, 2
 * for EUR, 3 for KWD): each pair is `[amountField, currencyField]`, checked when both are
 * there and well formed.
 */
export const minorUnitsOf = <T extends object>(...pairs: [keyof T & string, keyof T & string][]) =>
  z.superRefine<T>((value, ctx) => {
    const fields = value as Record<string, unknown>;
    for (const [amountField, currencyField] of pairs) {
      const [sum, code] = [fields[amountField], fields[currencyField]];
      const message =
        typeof sum === 'string' && typeof code === 'string' && minorUnitProblem(sum, code);
      if (message) ctx.issues.push({ code: 'custom', message, input: sum, path: [amountField] });
    }
  });

export const email = lazy(() =>
  z.string().check(atMost(MAX.email), rule(isEmail, ID_RULES.email[1])),
);

export const msisdn = lazy(() =>
  z.string().check(atMost(MAX.msisdn, 'digits'), rule(isMsisdn, MSISDN_RULE)),
);

/** Restricted strings of the standard-style interface (spec 2.4) and free texts: 256 at most. */
export const plainText = lazy(() => z.string().check(atMost(MAX.text), plain()));

/** externalId: free text of at most 256 characters, without the characters the service rejects. */
export const externalId = plainText;

/** Any other text (names, codes): at most 256 characters, nothing invisible in it. */
export const freeText = lazy(() =>
  z.string().check(
    z.minLength(1, { error: 'must not be empty', abort: true }),
    atMost(MAX.text),
    rule((v) => !hasInvisible(v), 'must not contain control or invisible format characters'),
  ),
);

/** payerMessage / payeeNote: history texts, at most 160 characters (MTN answers 400 beyond). */
export const note = lazy(() => z.string().check(atMost(MAX.note), plain()));

export const partyIdType = lazy(() =>
  z.enum(['MSISDN', 'EMAIL', 'PARTY_CODE'] satisfies PartyIdType[]),
);

/**
 * An identifier checked against its kind, named by another field (`partyIdType`,
 * `accountHolderIdType`, ...): the length first, then the kind's rule. A kind without a
 * rule is left to the service.
 */
export const idOfKind = <T extends object>(
  kindField: keyof T & string,
  idField: keyof T & string,
  rules: Readonly<Partial<Record<string, IdRule>>>,
) =>
  z.superRefine<T>((value, ctx) => {
    const fields = value as Record<string, unknown>;
    const kind = String(fields[kindField]);
    const found = Object.hasOwn(rules, kind) ? rules[kind] : undefined;
    const id = fields[idField];
    if (found === undefined || typeof id !== 'string') return;
    const [test, message, max] = found;
    const problem = id.length > max ? `must be at most ${max} characters` : !test(id) && message;
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: id, path: [idField] });
  });

/** Party (spec 2.1): partyId validated per partyIdType. */
export const party = lazy(() =>
  z.strictObject({ partyIdType: partyIdType(), partyId: z.string() }).check(
    idOfKind<{ partyIdType: PartyIdType; partyId: string }>('partyIdType', 'partyId', {
      MSISDN: ID_RULES.msisdn,
      EMAIL: ID_RULES.email,
      PARTY_CODE: ID_RULES.uuid,
    }),
  ),
);

/** Who pays or is paid. */
export interface Party {
  partyIdType: PartyIdType;
  /** Checked against `partyIdType`: E.164 digits, an e-mail address, or a UUID. */
  partyId: string;
}

// Written out in tolerant.ts, beside the results that echo them.
export type { PartyIdType, Reason, StatusLike } from './tolerant';

/** SUCCESSFUL and FAILED are final: nothing changes a transaction after them. */
export function isFinal(result: { status?: unknown } | string): boolean {
  const status = typeof result === 'string' ? result : result.status;
  return status === 'SUCCESSFUL' || status === 'FAILED';
}
