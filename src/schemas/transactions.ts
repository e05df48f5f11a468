import * as z from 'zod/mini';
import {
  amount,
  currency,
  externalId,
  looseString,
  note,
  party,
  partyOut,
  reason,
  uuidV4,
} from './common';

// ---- request bodies (spec 2.2): strict, validated before sending ----

/** Transfer and deposit body. */
export const transferBody = z.strictObject({
  amount,
  currency,
  externalId: z.optional(externalId),
  payee: party,
  payerMessage: z.optional(note),
  payeeNote: z.optional(note),
});
export type TransferBody = z.infer<typeof transferBody>;

export const refundBody = z.strictObject({
  amount,
  currency,
  externalId: z.optional(externalId),
  payerMessage: z.optional(note),
  payeeNote: z.optional(note),
  referenceIdToRefund: uuidV4,
});
export type RefundBody = z.infer<typeof refundBody>;

/** Transfer with consent and merchant payment with consent: amount only. */
export const consentPaymentBody = z.strictObject({ amount });
export type ConsentPaymentBody = z.infer<typeof consentPaymentBody>;

// ---- results: tolerant, unknown fields kept ----

/** Status lookup result (spec 2.5; MTN's TransferResult for the lookups it does not show). */
export const transactionResult = z.looseObject({
  referenceId: z.optional(z.string()),
  amount: z.optional(looseString),
  currency: z.optional(z.string()),
  financialTransactionId: z.optional(looseString),
  externalId: z.optional(looseString),
  payee: z.optional(partyOut),
  payer: z.optional(partyOut),
  payerMessage: z.optional(z.string()),
  payeeNote: z.optional(z.string()),
  status: z.string(),
  reason: z.optional(reason),
});

export type TransactionResult = z.infer<typeof transactionResult>;
export type TransferResult = TransactionResult;
export type DepositResult = TransactionResult;
export type RefundResult = TransactionResult;
export type MerchantPaymentResult = TransactionResult;

export const balance = z.looseObject({ availableBalance: looseString, currency: z.string() });
export type Balance = z.infer<typeof balance>;

export const basicUserInfo = z.looseObject({
  given_name: z.optional(z.string()),
  family_name: z.optional(z.string()),
  birthdate: z.optional(z.string()),
  locale: z.optional(z.string()),
  gender: z.optional(z.string()),
  status: z.optional(z.string()),
});
export type BasicUserInfo = z.infer<typeof basicUserInfo>;
