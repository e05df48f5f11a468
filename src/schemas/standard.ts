import * as z from 'zod/mini';
import { amount, currency, ID_RULES, idOfKind, minorUnitsOf, plainText } from './common';
import { lazy } from './lazy';
import { knownString, tolerant } from './tolerant';

/**
 * Standard-style disbursement (spec 2.4, limits in 8). Party `value` is sent as the
 * identifier string: the specification leaves its serialization open.
 */
const PARTY_KEYS = [
  'accountid',
  'msisdn',
  'identityalias',
  'emailaddress',
  'walletid',
  'consumerno',
] as const;

const entries = <T extends z.ZodMiniType>(entry: T, what: string) =>
  z
    .array(entry)
    .check(
      z.minLength(1, { error: `needs at least 1 ${what}` }),
      z.maxLength(10, { error: `must have at most 10 ${what}s` }),
    );

export const standardDisbursementBody = lazy(() => {
  const text256 = z
    .string()
    .check(
      z.minLength(1, { error: 'must not be empty' }),
      z.maxLength(256, { error: 'must be at most 256 characters' }),
    );
  const partyEntry = z
    .strictObject({
      key: z.enum(PARTY_KEYS satisfies readonly StandardPartyEntry['key'][]),
      value: text256,
    })
    .check(idOfKind<StandardPartyEntry>('key', 'value', { msisdn: ID_RULES.msisdn }));
  const creditEntry = z.strictObject({
    key: z.enum(['accountid'], {
      error: 'must be "accountid": the only credit party key allowed',
    }),
    value: text256,
  });
  return z
    .strictObject({
      requestingOrganisationTransactionReference: z.optional(
        plainText().check(z.maxLength(256, { error: 'must be at most 256 characters' })),
      ),
      debitParty: entries(partyEntry, 'entry'),
      creditParty: z.optional(entries(creditEntry, 'entry')),
      amount: amount(),
      currency: currency(),
      descriptionText: z.optional(
        plainText().check(z.maxLength(160, { error: 'must be at most 160 characters' })),
      ),
      customData: z.optional(
        z
          .array(z.strictObject({ key: text256, value: text256 }))
          .check(z.maxLength(20, { error: 'must have at most 20 entries' })),
      ),
    })
    .check(minorUnitsOf<StandardDisbursementBody>(['amount', 'currency']));
});

/** An identifier of a party on the standard-style interface. */
export interface StandardPartyEntry {
  key: 'accountid' | 'msisdn' | 'identityalias' | 'emailaddress' | 'walletid' | 'consumerno';
  /** 1 to 256 characters. */
  value: string;
}

/** What a standard-style disbursement sends (GSMA Mobile Money API style). */
export interface StandardDisbursementBody {
  /** At most 256 characters. */
  requestingOrganisationTransactionReference?: string | undefined;
  /** 1 to 10 entries. */
  debitParty: StandardPartyEntry[];
  /** 1 to 10 entries, each keyed `accountid`. */
  creditParty?: { key: 'accountid'; value: string }[] | undefined;
  /** A positive decimal string of at most 23 characters. */
  amount: string;
  currency: string;
  /** At most 160 characters. */
  descriptionText?: string | undefined;
  /** At most 20 key/value pairs, each of 1 to 256 characters. */
  customData?: { key: string; value: string }[] | undefined;
}

/** The 202 answer (spec 4.6); tolerant of missing fields. */
export const standardAccepted = lazy(() =>
  tolerant({
    serverCorrelationId: z.optional(z.string()),
    status: z.optional(knownString(['pending'] as const)),
    notificationMethod: z.optional(knownString(['callback', 'polling'] as const)),
  }),
);

/** What `standardDisbursement()` resolves to. */
export interface StandardDisbursementAccepted {
  /** X-CorrelationID sent (the caller's `referenceId`, or a generated UUID v4). */
  correlationId: string;
  serverCorrelationId: string;
  /** Always `pending` at this stage. */
  status: 'pending';
  /** `callback` when X-Callback-Url was sent, else `polling`. */
  notificationMethod: 'callback' | 'polling';
  /** The X-Callback-Url actually sent, if any. */
  callbackUrl?: string;
  /**
   * `true` when a retry was answered `DuplicateRequest`: an earlier attempt, whose answer
   * was lost, landed. `false` for an ordinary 202.
   */
  landedEarlier: boolean;
}
