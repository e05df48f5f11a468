import * as z from 'zod/mini';
import {
  amount,
  atMost,
  currency,
  externalId,
  ID_RULES,
  idOfKind,
  minorUnitsOf,
  note,
  type Party,
  party,
  plainText,
  wholeNumber,
} from './common';
import { lazy } from './lazy';
import { MAX } from './rules';
import {
  knownString,
  looseString,
  type OperationStatus,
  type Reason,
  type ResultParty,
  reason,
  resultParty,
  type Tolerant,
  type TransactionStatus,
  tolerant,
  transactionStatus,
} from './tolerant';

/*
 * Collection's pre-approvals, invoices and payments: the provider's documents
 * (`PreApproval`, `CreateInvoice`, `CreatePayments`) give no required fields; the SDK
 * requires what the operation cannot work without and checks the rest when present.
 */

/** POST /collection/v2_0/preapproval: the payer approves future debits by the caller. */
export const preApprovalBody = lazy(() =>
  z.strictObject({
    payer: party(),
    payerCurrency: currency(),
    /** Shown to the approver. */
    payerMessage: z.optional(note()),
    /** Seconds the payer has to approve (the document's `validityTime`). */
    validityTime: z.optional(wholeNumber(' of seconds', 1)),
  }),
);
/** What a pre-approval sends: the payer approves future debits by the caller. */
export interface PreApprovalBody {
  payer: Party;
  /** ISO 4217 code, e.g. `EUR`. */
  payerCurrency: string;
  /** Shown to the approver; at most 160 characters, without `'`, `&`, `<`, `>`. */
  payerMessage?: string | undefined;
  /** Seconds the payer has to approve (a positive whole number). */
  validityTime?: number | undefined;
}

/** Statuses with a CREATED state before PENDING (invoice, payment). */
export const createdStatus = lazy(() =>
  knownString(['CREATED', 'PENDING', 'SUCCESSFUL', 'FAILED'] as const),
);

/** GET /collection/v2_0/preapproval/{referenceId} (the document's `PreApprovalResult`). */
export const preApprovalResult = lazy(() =>
  tolerant({
    referenceId: z.optional(z.string()),
    payer: z.optional(resultParty()),
    payerCurrency: z.optional(z.string()),
    payerMessage: z.optional(z.string()),
    status: transactionStatus(),
    /** The document types it an integer and describes a date-time: either is kept. */
    expirationDateTime: z.optional(z.union([z.number(), z.string()])),
    reason: z.optional(reason()),
  }),
);
/** A pre-approval as its lookup answers it: PENDING until the payer decides. */
export interface PreApprovalResult extends Tolerant {
  referenceId?: string | undefined;
  payer?: ResultParty | undefined;
  payerCurrency?: string | undefined;
  payerMessage?: string | undefined;
  status: TransactionStatus;
  /** As sent: the document types it an integer and describes a date-time. */
  expirationDateTime?: number | string | undefined;
  reason?: Reason | undefined;
}

/** One approved pre-approval (the document's `PreApprovalDetails`). */
export const preApprovalDetails = lazy(() =>
  tolerant({
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
    externalId: z.optional(looseString()),
    maxDebitAmount: z.optional(looseString()),
  }),
);
/** One approved pre-approval of an account holder (its id cancels it). */
export interface PreApprovalDetails extends Tolerant {
  preApprovalId: string;
  toFri?: string | undefined;
  fromFri?: string | undefined;
  fromCurrency?: string | undefined;
  createdTime?: string | undefined;
  approvedTime?: string | undefined;
  expiryTime?: string | undefined;
  status?: 'APPROVED' | 'CANCELLED' | 'EXPIRED' | 'REJECTED' | 'PENDING' | undefined;
  message?: string | undefined;
  frequency?: 'DAILY' | 'MONTHLY' | 'WEEKLY' | undefined;
  startDate?: string | undefined;
  lastUsedDate?: string | undefined;
  offer?: string | undefined;
  externalId?: string | undefined;
  maxDebitAmount?: string | undefined;
}
export const approvedPreApprovals = lazy(() => z.array(preApprovalDetails()));

/** The document's `accountHolderIdType` of the pre-approval list. */
export type PreApprovalHolderIdType = 'msisdn' | 'email' | 'id' | 'alias';
export const preApprovalHolderIdType = lazy(() =>
  z.enum(['msisdn', 'email', 'id', 'alias'] satisfies PreApprovalHolderIdType[]),
);

/** Pre-approval ids are the service's own: any non-empty id without a path separator. */
export const preApprovalId = lazy(() =>
  z.string().check(z.minLength(1, { error: 'must not be empty', abort: true }), atMost(MAX.text)),
);

/** The holder of `getApprovedPreApprovals`: an MSISDN or an e-mail by its rule. */
export const approvedQuery = lazy(() =>
  z
    .strictObject({
      accountHolderIdType: preApprovalHolderIdType(),
      accountHolderId: preApprovalId(),
    })
    .check(
      idOfKind<{ accountHolderIdType: string; accountHolderId: string }>(
        'accountHolderIdType',
        'accountHolderId',
        ID_RULES,
      ),
    ),
);

/** POST /collection/v2_0/invoice. */
export const invoiceBody = lazy(() =>
  z
    .strictObject({
      externalId: z.optional(externalId()),
      amount: amount(),
      currency: currency(),
      /** Seconds the invoice stays payable, as a string of digits (the document's type). */
      validityDuration: z
        .string()
        .check(
          atMost(MAX.text),
          z.regex(/^[1-9]\d*$/, { error: 'must be a whole number of seconds, as a string' }),
        ),
      intendedPayer: party(),
      payee: party(),
      description: z.optional(note()),
    })
    .check(minorUnitsOf<InvoiceBody>(['amount', 'currency'])),
);
/** What an invoice sends. */
export interface InvoiceBody {
  /** Your own reference, for reconciliation. */
  externalId?: string | undefined;
  /** A positive decimal string. */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  /** Seconds the invoice stays payable, as a string of digits, e.g. `"3600"`. */
  validityDuration: string;
  intendedPayer: Party;
  payee: Party;
  /** At most 160 characters, without `'`, `&`, `<`, `>`. */
  description?: string | undefined;
}

/** DELETE /collection/v2_0/invoice/{referenceId} body. */
export const cancelInvoiceBody = lazy(() => z.strictObject({ externalId: externalId() }));
/** What an invoice cancellation sends. */
export interface CancelInvoiceBody {
  externalId: string;
}

/** GET /collection/v2_0/invoice/{referenceId}; the failure reason is `errorReason`, copied to `reason`. */
export const invoiceResult = lazy(() =>
  z.pipe(
    tolerant({
      referenceId: z.optional(z.string()),
      externalId: z.optional(looseString()),
      amount: z.optional(looseString()),
      currency: z.optional(z.string()),
      status: createdStatus(),
      paymentReference: z.optional(z.string()),
      invoiceId: z.optional(looseString()),
      expiryDateTime: z.optional(z.string()),
      payeeFirstName: z.optional(z.string()),
      payeeLastName: z.optional(z.string()),
      errorReason: z.optional(reason()),
      reason: z.optional(reason()),
      intendedPayer: z.optional(resultParty()),
      description: z.optional(z.string()),
    }),
    z.transform((v) => (v.reason || !v.errorReason ? v : { ...v, reason: v.errorReason })),
  ),
);
/**
 * An invoice as its lookup answers it: CREATED, then PENDING, SUCCESSFUL (paid) or FAILED
 * (`errorReason`, also given as `reason`).
 */
export interface InvoiceResult extends Tolerant {
  referenceId?: string | undefined;
  externalId?: string | undefined;
  amount?: string | undefined;
  currency?: string | undefined;
  status: OperationStatus;
  paymentReference?: string | undefined;
  invoiceId?: string | undefined;
  expiryDateTime?: string | undefined;
  payeeFirstName?: string | undefined;
  payeeLastName?: string | undefined;
  errorReason?: Reason | undefined;
  reason?: Reason | undefined;
  intendedPayer?: ResultParty | undefined;
  description?: string | undefined;
}

/** POST /collection/v2_0/payment (bills and top-ups; the document's `CreatePayments`). */
export const paymentBody = lazy(() =>
  z.strictObject({
    externalTransactionId: z.optional(externalId()),
    /** The amount of a payment. */
    money: z
      .strictObject({ amount: amount(), currency: currency() })
      .check(minorUnitsOf<PaymentBody['money']>(['amount', 'currency'])),
    customerReference: z.optional(plainText()),
    serviceProviderUserName: z.optional(plainText()),
    couponId: z.optional(plainText()),
    productId: z.optional(plainText()),
    productOfferingId: z.optional(plainText()),
    receiverMessage: z.optional(note()),
    senderNote: z.optional(note()),
    maxNumberOfRetries: z.optional(wholeNumber('', 0)),
    includeSenderCharges: z.optional(z.boolean()),
  }),
);
/** What a payment (a bill or a top-up) sends. */
export interface PaymentBody {
  externalTransactionId?: string | undefined;
  /** A positive decimal string and an ISO 4217 code. */
  money: { amount: string; currency: string };
  customerReference?: string | undefined;
  serviceProviderUserName?: string | undefined;
  couponId?: string | undefined;
  productId?: string | undefined;
  productOfferingId?: string | undefined;
  /** At most 160 characters. */
  receiverMessage?: string | undefined;
  /** At most 160 characters. */
  senderNote?: string | undefined;
  /** A whole number, 0 or more. */
  maxNumberOfRetries?: number | undefined;
  /** `true`: the sender's fee and tax come out of the amount. */
  includeSenderCharges?: boolean | undefined;
}

/** GET /collection/v2_0/payment/{referenceId} (the document's `PaymentResult`). */
export const paymentResult = lazy(() =>
  tolerant({
    referenceId: z.optional(z.string()),
    status: createdStatus(),
    financialTransactionId: z.optional(looseString()),
    reason: z.optional(reason()),
  }),
);
/** A payment as its lookup answers it: CREATED, PENDING, then SUCCESSFUL or FAILED. */
export interface PaymentResult extends Tolerant {
  referenceId?: string | undefined;
  status: OperationStatus;
  financialTransactionId?: string | undefined;
  reason?: Reason | undefined;
}
