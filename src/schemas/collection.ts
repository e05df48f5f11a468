import * as z from 'zod/mini';
import {
  amount,
  atMost,
  currency,
  email,
  externalId,
  freeText,
  ID_RULES,
  type IdRule,
  idOfKind,
  minorUnitsOf,
  msisdn,
  note,
  type Party,
  party,
} from './common';
import { lazy } from './lazy';
import { hasInvisible, isEmail, isMsisdn, MAX, MSISDN_RULE } from './rules';
import { knownString, looseString, type Tolerant, tolerant } from './tolerant';

// ---- request bodies: strict, validated before sending ----

/** Request to pay and request to withdraw (spec 2.2): the payer is asked to authorize. */
export const requestToPayBody = lazy(() =>
  z
    .strictObject({
      amount: amount(),
      currency: currency(),
      externalId: z.optional(externalId()),
      payer: party(),
      payerMessage: z.optional(note()),
      payeeNote: z.optional(note()),
    })
    .check(minorUnitsOf<RequestToPayBody>(['amount', 'currency'])),
);

/** What a request to pay (or to withdraw) sends: the payer is asked to authorize. */
export interface RequestToPayBody {
  /** A positive decimal string, e.g. `"250"` or `"12.50"`. */
  amount: string;
  /** ISO 4217 code, e.g. `EUR`. */
  currency: string;
  /** Your own reference, for reconciliation. */
  externalId?: string | undefined;
  payer: Party;
  /** At most 160 characters, without `'`, `&`, `<`, `>` or control characters. */
  payerMessage?: string | undefined;
  /** At most 160 characters, without `'`, `&`, `<`, `>` or control characters. */
  payeeNote?: string | undefined;
}
/** The body of `requestToWithdraw`: the same as a request to pay. */
export type RequestToWithdrawBody = RequestToPayBody;

/**
 * Identification document kinds. `SRSSA` is the provider documents' spelling of the
 * specification's `SRSA`: both are accepted and sent as `compat` says.
 */
export type IdentificationType =
  | 'PASS'
  | 'CPFA'
  | 'SRSA'
  | 'SRSSA'
  | 'NRIN'
  | 'OTHR'
  | 'DRLC'
  | 'SOCS'
  | 'AREG'
  | 'IDCD'
  | 'EMID';

/**
 * Identification document kinds (spec 2.3, 2.6), with `SRSSA`, the provider documents'
 * spelling of `SRSA`: the client's check and the simulator's.
 */
export const IDENTIFICATION_TYPES = [
  'PASS',
  'CPFA',
  'SRSA',
  'SRSSA',
  'NRIN',
  'OTHR',
  'DRLC',
  'SOCS',
  'AREG',
  'IDCD',
  'EMID',
] as const satisfies readonly IdentificationType[];
export const identificationType = lazy(() => z.enum(IDENTIFICATION_TYPES));

const text = freeText;
const RECEIVER_IDS = ['msisdn', 'alias', 'email', 'username', 'externalId'] as const;

/** Voucher receiver (spec 2.6): at least one of msisdn, alias, email, username, externalId. */
export const voucherReceiver = lazy(() =>
  z
    .strictObject({
      firstName: z.optional(text()),
      surname: z.optional(text()),
      birthDate: z.optional(text()),
      identificationType: z.optional(identificationType()),
      identification: z.optional(
        z.string().check(atMost(MAX.text), z.regex(/^\d+$/, { error: 'must be a numeric string' })),
      ),
      msisdn: z.optional(msisdn()),
      alias: z.optional(text()),
      email: z.optional(email()),
      username: z.optional(text()),
      externalId: z.optional(text()),
      languageCode: z.optional(text()),
    })
    .check(
      z.refine((r) => RECEIVER_IDS.some((key) => r[key] !== undefined), {
        error: `needs at least one of ${RECEIVER_IDS.join(', ')}`,
      }),
    ),
);

/** Voucher redeem body (spec 2.6); otp and secret are case-insensitive. */
export const voucherRedeemBody = lazy(() =>
  z.strictObject({
    externalId: z.optional(externalId()),
    receiver: voucherReceiver(),
    otp: z.optional(text()),
    secret: z.optional(text()),
  }),
);

/** Who redeems a voucher: at least one of msisdn, alias, email, username, externalId. */
export interface VoucherReceiver {
  firstName?: string | undefined;
  surname?: string | undefined;
  birthDate?: string | undefined;
  identificationType?: IdentificationType | undefined;
  /** Digits only. */
  identification?: string | undefined;
  msisdn?: string | undefined;
  alias?: string | undefined;
  email?: string | undefined;
  username?: string | undefined;
  externalId?: string | undefined;
  languageCode?: string | undefined;
}

/** What a voucher redemption sends; `otp` and `secret` are case-insensitive. */
export interface VoucherRedeemBody {
  externalId?: string | undefined;
  receiver: VoucherReceiver;
  otp?: string | undefined;
  secret?: string | undefined;
}

export const voucherToken = lazy(() =>
  z.string().check(z.minLength(1, { error: 'must not be empty' }), atMost(MAX.text)),
);

/** Delivery notification text (spec 4.14); MTN limits it to 160 characters. */
export const notificationMessage = lazy(() =>
  z.string().check(
    z.minLength(1, { error: 'must not be empty', abort: true }),
    atMost(MAX.note),
    z.refine((v) => !hasInvisible(v), {
      error: 'must not contain control or invisible format characters',
    }),
  ),
);

/** Language header: ISO 639-1 or ISO 639-3 code (spec 4.0). */
export const language = lazy(() =>
  z.string().check(z.regex(/^[A-Za-z]{2,3}$/, { error: 'must be an ISO 639-1 or ISO 639-3 code' })),
);

export const deliveryNotificationBody = lazy(() =>
  z.strictObject({ notificationMessage: notificationMessage() }),
);

// ---- account status (spec 4.11) ----

/** How `getAccountStatus` identifies the account. */
export type AccountIdentifierType = 'accountid' | 'msisdn' | 'identityalias' | 'emailaddress';
export const identifierType = lazy(() =>
  z.enum([
    'accountid',
    'msisdn',
    'identityalias',
    'emailaddress',
  ] satisfies AccountIdentifierType[]),
);

const IDENTIFIER_RULES: Record<AccountIdentifierType, IdRule> = {
  accountid: [ID_RULES.uuid[0], 'must be a UUID for accountid', MAX.uuid],
  msisdn: [isMsisdn, `${MSISDN_RULE} for msisdn`, MAX.msisdn],
  identityalias: [(v) => /^\S/.test(v), 'must not start with a space', MAX.text],
  emailaddress: [isEmail, 'must be an e-mail address for emailaddress', MAX.email],
};

/** The identifier of a status lookup, checked against its kind. */
export const accountIdentifier = lazy(() =>
  z
    .strictObject({
      identifierType: identifierType(),
      identifier: z
        .string()
        .check(z.minLength(1, { error: 'must not be empty', abort: true }), atMost(MAX.text)),
    })
    .check(
      idOfKind<{ identifierType: string; identifier: string }>(
        'identifierType',
        'identifier',
        IDENTIFIER_RULES,
      ),
    ),
);

// ---- results: tolerant ----

export const accountStatus = lazy(() =>
  tolerant({ accountStatus: knownString(['available', 'unavailable'] as const) }),
);

/** Whether an account can be used; a value, not a transaction state. */
export interface AccountStatus extends Tolerant {
  /** Another value may appear: treat it as "not known to be available". */
  accountStatus: 'available' | 'unavailable';
}

export const heartbeat = lazy(() => tolerant({ serviceStatus: z.string() }));

/** The service's availability, as it words it. */
export interface Heartbeat extends Tolerant {
  serviceStatus: string;
}

export const voucherOtp = lazy(() =>
  tolerant({ type: z.optional(z.string()), msisdn: z.optional(looseString()) }),
);

/** The one-time password of a voucher: how it was sent, and to which number. */
export interface VoucherOtp extends Tolerant {
  type?: string | undefined;
  msisdn?: string | undefined;
}
