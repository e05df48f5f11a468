import * as z from 'zod/mini';
import { amount, currency, externalId, note, party, plainText } from './common';
import {
  knownString,
  looseString,
  reason,
  resultParty,
  tolerant,
  transactionStatus,
} from './tolerant';

/*
 * Collection's pre-approvals, invoices and payments: the provider's documents
 * (`PreApproval`, `CreateInvoice`, `CreatePayments`) give no required fields; the SDK
 * requires what the operation cannot work without and checks the rest when present.
 */

const wholeSeconds = z
  .number()
  .check(z.int({ error: 'must be a whole number of seconds' }), z.positive());

/** POST /collection/v2_0/preapproval: the payer approves future debits by the caller. */
export const preApprovalBody = z.strictObject({
  payer: party,
  payerCurrency: currency,
  /** Shown to the approver. */
  payerMessage: z.optional(note),
  /** Seconds the payer has to approve (the document's `validityTime`). */
  validityTime: z.optional(wholeSeconds),
});
export type PreApprovalBody = z.input<typeof preApprovalBody>;

/** Statuses with a CREATED state before PENDING (invoice, payment). */
export const createdStatus = knownString(['CREATED', 'PENDING', 'SUCCESSFUL', 'FAILED'] as const);

/** GET /collection/v2_0/preapproval/{referenceId} (the document's `PreApprovalResult`). */
export const preApprovalResult = tolerant({
  referenceId: z.optional(z.string()),
  payer: z.optional(resultParty),
  payerCurrency: z.optional(z.string()),
  payerMessage: z.optional(z.string()),
  status: transactionStatus,
  /** The document types it an integer and describes a date-time: either is kept. */
  expirationDateTime: z.optional(z.union([z.number(), z.string()])),
  reason: z.optional(reason),
});
export type PreApprovalResult = z.output<typeof preApprovalResult>;

/** One approved pre-approval (the document's `PreApprovalDetails`). */
export const preApprovalDetails = tolerant({
  preApprovalId: z.string(),
  toFri: z.optional(z.string()),
  fromFri: z.optional(z.string()),
  fromCurrency: z.optional(z.string()),
  createdTime: z.optional(z.string()),
  approvedTime: z.optional(z.string()),
  expiryTime: z.optional(z.string()),
  status: z.optional(
    knownString(['APPROVED', 'CANCELLED', 'EXPIRED', 'REJECTED', 'PENDING'] as const),
  ),
  message: z.optional(z.string()),
  frequency: z.optional(knownString(['DAILY', 'MONTHLY', 'WEEKLY'] as const)),
  startDate: z.optional(z.string()),
  lastUsedDate: z.optional(z.string()),
  offer: z.optional(z.string()),
  externalId: z.optional(looseString),
  maxDebitAmount: z.optional(looseString),
});
export type PreApprovalDetails = z.output<typeof preApprovalDetails>;
export const approvedPreApprovals = z.array(preApprovalDetails);

/** The document's `accountHolderIdType` of the pre-approval list. */
export const preApprovalHolderIdType = z.enum(['msisdn', 'email', 'id', 'alias']);
export type PreApprovalHolderIdType = z.output<typeof preApprovalHolderIdType>;

/** Pre-approval ids are the service's own: any non-empty id without a path separator. */
export const preApprovalId = z
  .string()
  .check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(256));

/** POST /collection/v2_0/invoice. */
export const invoiceBody = z.strictObject({
  externalId: z.optional(externalId),
  amount,
  currency,
  /** Seconds the invoice stays payable, as a string of digits (the document's type). */
  validityDuration: z
    .string()
    .check(z.regex(/^[1-9]\d*$/, { error: 'must be a whole number of seconds, as a string' })),
  intendedPayer: party,
  payee: party,
  description: z.optional(note),
});
export type InvoiceBody = z.input<typeof invoiceBody>;

/** DELETE /collection/v2_0/invoice/{referenceId} body. */
export const cancelInvoiceBody = z.strictObject({ externalId: externalId });
export type CancelInvoiceBody = z.input<typeof cancelInvoiceBody>;

/** GET /collection/v2_0/invoice/{referenceId}; the failure reason is `errorReason`, copied to `reason`. */
export const invoiceResult = z.pipe(
  tolerant({
    referenceId: z.optional(z.string()),
    externalId: z.optional(looseString),
    amount: z.optional(looseString),
    currency: z.optional(z.string()),
    status: createdStatus,
    paymentReference: z.optional(z.string()),
    invoiceId: z.optional(looseString),
    expiryDateTime: z.optional(z.string()),
    payeeFirstName: z.optional(z.string()),
    payeeLastName: z.optional(z.string()),
    errorReason: z.optional(reason),
    reason: z.optional(reason),
    intendedPayer: z.optional(resultParty),
    description: z.optional(z.string()),
  }),
  z.transform((v) => (v.reason || !v.errorReason ? v : { ...v, reason: v.errorReason })),
);
export type InvoiceResult = z.output<typeof invoiceResult>;

/** The amount of a payment. */
const money = z.strictObject({ amount, currency });

/** POST /collection/v2_0/payment (bills and top-ups; the document's `CreatePayments`). */
export const paymentBody = z.strictObject({
  externalTransactionId: z.optional(externalId),
  money,
  customerReference: z.optional(plainText),
  serviceProviderUserName: z.optional(plainText),
  couponId: z.optional(plainText),
  productId: z.optional(plainText),
  productOfferingId: z.optional(plainText),
  receiverMessage: z.optional(note),
  senderNote: z.optional(note),
  maxNumberOfRetries: z.optional(
    z.number().check(z.int({ error: 'must be a whole number' }), z.nonnegative()),
  ),
  includeSenderCharges: z.optional(z.boolean()),
});
export type PaymentBody = z.input<typeof paymentBody>;

/** GET /collection/v2_0/payment/{referenceId} (the document's `PaymentResult`). */
export const paymentResult = tolerant({
  referenceId: z.optional(z.string()),
  status: createdStatus,
  financialTransactionId: z.optional(looseString),
  reason: z.optional(reason),
});
export type PaymentResult = z.output<typeof paymentResult>;
