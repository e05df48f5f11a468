import type { ClientSurface } from '../client-surface';
import type { RequestOptions } from '../core/options';
import type { WaitOptions } from '../polling/poller';
import { requestToPayBody } from '../schemas/collection';
import { invoiceBody, paymentBody, preApprovalBody } from '../schemas/collection-v2';
import type { LazySchema } from '../schemas/lazy';
import { cashTransferBody } from '../schemas/remittance';
import { refundBody, transferBody } from '../schemas/transactions';
import type { BatchOperation } from './types';

/** What a batch needs of a final result (every creating call's result has these). */
export interface FinalLike {
  status: string;
  reason?: unknown;
  financialTransactionId?: string | undefined;
}

/**
 * How a batch runs one creating operation, on the client's public methods only: the
 * creating call (with `{ referenceId, callbackUrl }`), its `waitForX`, the body's schema
 * (the one the method itself checks: every item is checked before the first send), and
 * the party an account-holder check looks at.
 */
export interface BatchOperationSpec {
  product: 'disbursement' | 'collection' | 'remittance';
  body: LazySchema<unknown>;
  /** The body field naming the counterparty `checkAccountHolder` checks, if any. */
  party?: 'payee' | 'payer' | 'intendedPayer';
  create(
    momo: ClientSurface,
    body: never,
    options: RequestOptions,
  ): Promise<{ referenceId: string }>;
  wait(momo: ClientSurface, referenceId: string, options: WaitOptions<never>): Promise<FinalLike>;
}

/**
 * Every creating operation that has a status lookup, by its name (the simulator's and the
 * journal's). Left out, refused by name: the consent ones (each needs its payer's consent
 * token), `collection.redeemVoucher` and `collection.standardDisbursement` (no lookup:
 * their outcome comes by callback only), `collection.cancelInvoice` (answers at once).
 */
export const BATCH_OPERATIONS = {
  'disbursement.transfer': {
    product: 'disbursement',
    body: transferBody,
    party: 'payee',
    create: (m, b, o) => m.disbursement.transfer(b, o),
    wait: (m, id, o) => m.disbursement.waitForTransfer(id, o),
  },
  'disbursement.deposit': {
    product: 'disbursement',
    body: transferBody,
    party: 'payee',
    create: (m, b, o) => m.disbursement.deposit(b, o),
    wait: (m, id, o) => m.disbursement.waitForDeposit(id, o),
  },
  'disbursement.depositV2': {
    product: 'disbursement',
    body: transferBody,
    party: 'payee',
    create: (m, b, o) => m.disbursement.depositV2(b, o),
    wait: (m, id, o) => m.disbursement.waitForDeposit(id, o),
  },
  'disbursement.refund': {
    product: 'disbursement',
    body: refundBody,
    create: (m, b, o) => m.disbursement.refund(b, o),
    wait: (m, id, o) => m.disbursement.waitForRefund(id, o),
  },
  'disbursement.refundV2': {
    product: 'disbursement',
    body: refundBody,
    create: (m, b, o) => m.disbursement.refundV2(b, o),
    wait: (m, id, o) => m.disbursement.waitForRefund(id, o),
  },
  'collection.requestToPay': {
    product: 'collection',
    body: requestToPayBody,
    party: 'payer',
    create: (m, b, o) => m.collection.requestToPay(b, o),
    wait: (m, id, o) => m.collection.waitForRequestToPay(id, o),
  },
  'collection.requestToWithdraw': {
    product: 'collection',
    body: requestToPayBody,
    party: 'payer',
    create: (m, b, o) => m.collection.requestToWithdraw(b, o),
    wait: (m, id, o) => m.collection.waitForRequestToWithdraw(id, o),
  },
  'collection.requestToWithdrawV1': {
    product: 'collection',
    body: requestToPayBody,
    party: 'payer',
    create: (m, b, o) => m.collection.requestToWithdrawV1(b, o),
    wait: (m, id, o) => m.collection.waitForRequestToWithdraw(id, o),
  },
  'collection.preApproval': {
    product: 'collection',
    body: preApprovalBody,
    party: 'payer',
    create: (m, b, o) => m.collection.preApproval(b, o),
    wait: (m, id, o) => m.collection.waitForPreApproval(id, o),
  },
  'collection.createInvoice': {
    product: 'collection',
    body: invoiceBody,
    party: 'intendedPayer',
    create: (m, b, o) => m.collection.createInvoice(b, o),
    wait: (m, id, o) => m.collection.waitForInvoice(id, o),
  },
  'collection.createPayment': {
    product: 'collection',
    body: paymentBody,
    create: (m, b, o) => m.collection.createPayment(b, o),
    wait: (m, id, o) => m.collection.waitForPayment(id, o),
  },
  'remittance.transfer': {
    product: 'remittance',
    body: transferBody,
    party: 'payee',
    create: (m, b, o) => m.remittance.transfer(b, o),
    wait: (m, id, o) => m.remittance.waitForTransfer(id, o),
  },
  'remittance.cashTransfer': {
    product: 'remittance',
    body: cashTransferBody,
    party: 'payee',
    create: (m, b, o) => m.remittance.cashTransfer(b, o),
    wait: (m, id, o) => m.remittance.waitForCashTransfer(id, o),
  },
} satisfies Record<BatchOperation, BatchOperationSpec>;

// The written-out union names exactly the table's operations (a missing or extra one fails
// to compile here).
const sameNames: [BatchOperation, keyof typeof BATCH_OPERATIONS] extends [
  keyof typeof BATCH_OPERATIONS,
  BatchOperation,
]
  ? true
  : never = true;
void sameNames;

/** The spec of a named operation, or undefined for one a batch cannot run. */
export function batchOperation(name: unknown): BatchOperationSpec | undefined {
  return typeof name === 'string' && Object.hasOwn(BATCH_OPERATIONS, name)
    ? (BATCH_OPERATIONS as Record<string, BatchOperationSpec>)[name]
    : undefined;
}
