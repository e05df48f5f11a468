import type { Operation, SimTransaction, TransactionKind, TransactionStatus } from './types';

/** One kind per operation: versions and products of the same thing share it. */
const KINDS: Readonly<Record<Operation, TransactionKind>> = {
  'disbursement.transfer': 'transfer',
  'disbursement.transferWithConsent': 'transfer',
  'remittance.transfer': 'transfer',
  'disbursement.deposit': 'deposit',
  'disbursement.depositV2': 'deposit',
  'disbursement.refund': 'refund',
  'disbursement.refundV2': 'refund',
  'disbursement.merchantPaymentWithConsent': 'merchantPayment',
  'collection.requestToPay': 'requestToPay',
  'collection.requestToWithdraw': 'requestToWithdraw',
  'collection.requestToWithdrawV1': 'requestToWithdraw',
  'collection.redeemVoucher': 'voucherRedemption',
  'collection.standardDisbursement': 'standardDisbursement',
  'remittance.cashTransfer': 'cashTransfer',
  'collection.preApproval': 'preApproval',
  'collection.createInvoice': 'invoice',
  'collection.cancelInvoice': 'invoiceCancellation',
  'collection.createPayment': 'payment',
};

export function kindOf(operation: Operation): TransactionKind {
  return KINDS[operation];
}

/** Whether `operation` is a refund (either version): refunds cannot be refunded. */
export function isRefund(operation: Operation): boolean {
  return KINDS[operation] === 'refund';
}

type PreApprovalView = NonNullable<SimTransaction['preApproval']>;

/** What a pre-approval's state is read from: a stored transaction (the ledger's TxRecord). */
interface StoredPreApproval {
  readonly referenceId: string;
  readonly operation: Operation;
  readonly status: TransactionStatus;
  readonly extra?: Readonly<Record<string, string>>;
  readonly finalizedAt: number | undefined;
  readonly cancelledAt: number | undefined;
}

/**
 * An approved pre-approval's state at `now`: APPROVED until `validityTime` seconds after
 * its approval or its cancellation, whichever comes first. Undefined for anything else
 * (another operation, or a pre-approval not approved: PENDING or FAILED).
 */
export function preApprovalView(tx: StoredPreApproval, now: number): PreApprovalView | undefined {
  if (tx.operation !== 'collection.preApproval' || tx.status !== 'SUCCESSFUL') return undefined;
  const preApprovalId = tx.extra?.preApprovalId ?? tx.referenceId;
  const validity = tx.extra?.validityTime;
  const expiresAt =
    validity === undefined ? undefined : (tx.finalizedAt ?? now) + Number(validity) * 1000;
  const state =
    tx.cancelledAt !== undefined && (expiresAt === undefined || tx.cancelledAt < expiresAt)
      ? 'CANCELLED'
      : expiresAt !== undefined && now >= expiresAt
        ? 'EXPIRED'
        : 'APPROVED';
  return { preApprovalId, state, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}
