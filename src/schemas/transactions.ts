import * as z from 'zod/mini';
import {
  amount,
  currency,
  externalId,
  minorUnitsOf,
  note,
  type Party,
  party,
  uuidV4,
} from './common';
import { lazy } from './lazy';
import {
  looseString,
  type Reason,
  type ResultParty,
  reason,
  resultParty,
  type Tolerant,
  type TransactionStatus,
  tolerant,
  transactionStatus,
} from './tolerant';

// ---- request bodies (spec 2.2): strict, validated before sending ----

/** Transfer and deposit body. */
export const transferBody = lazy(() =>
  z
    .strictObject({
      amount: amount(),
      currency: currency(),
      externalId: z.optional(externalId()),
      payee: party(),
      payerMessage: z.optional(note()),
      payeeNote: z.optional(note()),
    })
    .check(minorUnitsOf<TransferBody>(['amount', 'currency'])),
);

/** What a transfer or a deposit sends. */
export interface TransferBody {
  /** A positive decimal string, e.g. `"250"` or `"12.50"`. */
  amount: string;
  /** ISO 4217 code, e.g. `EUR`. */
  currency: string;
  /** Your own reference, for reconciliation. */
  externalId?: string | undefined;
  payee: Party;
  /** At most 160 characters, without `'`, `&`, `<`, `>` or control characters. */
  payerMessage?: string | undefined;
  /** At most 160 characters, without `'`, `&`, `<`, `>` or control characters. */
  payeeNote?: string | undefined;
}

export const refundBody = lazy(() =>
  z
    .strictObject({
      amount: amount(),
      currency: currency(),
      externalId: z.optional(externalId()),
      payerMessage: z.optional(note()),
      payeeNote: z.optional(note()),
      referenceIdToRefund: uuidV4(),
    })
    .check(minorUnitsOf<RefundBody>(['amount', 'currency'])),
);

/** What a refund sends. */
export interface RefundBody extends Omit<TransferBody, 'payee'> {
  /** The reference id of the deposit or transfer to refund (UUID v4). */
  referenceIdToRefund: string;
}

/** Transfer with consent and merchant payment with consent: amount only. */
export const consentPaymentBody = lazy(() => z.strictObject({ amount: amount() }));
/** The body of `transferWithConsent` and `merchantPaymentWithConsent`. */
export interface ConsentPaymentBody {
  /** A positive decimal string. */
  amount: string;
}

// ---- results: tolerant (see tolerant.ts) ----

/** Shared with the cash-transfer result, which extends it. */
export const transactionResultShape = lazy(() => ({
  referenceId: z.optional(z.string()),
  amount: z.optional(looseString()),
  currency: z.optional(z.string()),
  financialTransactionId: z.optional(looseString()),
  externalId: z.optional(looseString()),
  payee: z.optional(resultParty()),
  payer: z.optional(resultParty()),
  payerMessage: z.optional(z.string()),
  payeeNote: z.optional(z.string()),
  status: transactionStatus(),
  reason: z.optional(reason()),
}));

/** Status lookup result (spec 2.5; MTN's TransferResult for the lookups it does not show). */
export const transactionResult = lazy(() => tolerant(transactionResultShape()));

/**
 * A transaction as a status lookup answers it. `status` is `PENDING` until the
 * transaction is final, then `SUCCESSFUL` or `FAILED` (with `reason`). Numbers sent where
 * strings are documented arrive as strings.
 */
export interface TransactionResult extends Tolerant {
  referenceId?: string | undefined;
  amount?: string | undefined;
  currency?: string | undefined;
  /** The service's id of the money movement, once it happened. */
  financialTransactionId?: string | undefined;
  externalId?: string | undefined;
  payee?: ResultParty | undefined;
  payer?: ResultParty | undefined;
  payerMessage?: string | undefined;
  payeeNote?: string | undefined;
  /**
   * A value this SDK does not know passes through unchanged; `wait()` keeps polling
   * until `SUCCESSFUL` or `FAILED` (or its deadline).
   */
  status: TransactionStatus;
  /** Why it FAILED. */
  reason?: Reason | undefined;
}

/** A transfer as looked up (disbursement or remittance). */
export type TransferResult = TransactionResult;
/** A deposit as looked up. */
export type DepositResult = TransactionResult;
/** A refund as looked up. */
export type RefundResult = TransactionResult;
/** A merchant payment with consent as looked up. */
export type MerchantPaymentResult = TransactionResult;

export const balance = lazy(() =>
  tolerant({ availableBalance: looseString(), currency: z.string() }),
);

/** An account balance. */
export interface Balance extends Tolerant {
  /** A decimal string. */
  availableBalance: string;
  currency: string;
}

export const basicUserInfo = lazy(() =>
  tolerant({
    given_name: z.optional(z.string()),
    family_name: z.optional(z.string()),
    birthdate: z.optional(z.string()),
    locale: z.optional(z.string()),
    gender: z.optional(z.string()),
    status: z.optional(z.string()),
  }),
);

/** An account holder's basic information. */
export interface BasicUserInfo extends Tolerant {
  given_name?: string | undefined;
  family_name?: string | undefined;
  birthdate?: string | undefined;
  /** A BCP 47 language tag, e.g. `en-US`. */
  locale?: string | undefined;
  /** `female`, `male`, or another value. */
  gender?: string | undefined;
  status?: string | undefined;
}
