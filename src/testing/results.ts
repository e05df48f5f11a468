import type { TxRecord } from './ledger';

/**
 * The status-lookup body: MTN's TransferResult shape (amount, currency,
 * financialTransactionId once SUCCESSFUL, externalId, payee, payerMessage, payeeNote,
 * status, reason when FAILED); RequestToPayResult shows `payer` where a payer was given. `withReferenceId` adds spec 2.5's referenceId first.
 */
export function resultBody(tx: TxRecord, withReferenceId = false): Record<string, unknown> {
  return {
    ...(withReferenceId ? { referenceId: tx.referenceId } : {}),
    amount: tx.amount,
    currency: tx.currency,
    ...(tx.status === 'SUCCESSFUL' ? { financialTransactionId: tx.financialTransactionId } : {}),
    ...(tx.externalId !== undefined ? { externalId: tx.externalId } : {}),
    ...(tx.payee ? { payee: { ...tx.payee } } : {}),
    ...(tx.payer ? { payer: { ...tx.payer } } : {}),
    ...(tx.payerMessage !== undefined ? { payerMessage: tx.payerMessage } : {}),
    ...(tx.payeeNote !== undefined ? { payeeNote: tx.payeeNote } : {}),
    status: tx.status,
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
  };
}

/** The lookup or callback body of a transaction: its own renderer, else resultBody. */
export function renderResult(tx: TxRecord, withReferenceId = false): Record<string, unknown> {
  if (!tx.render) return resultBody(tx, withReferenceId);
  return { ...(withReferenceId ? { referenceId: tx.referenceId } : {}), ...tx.render(tx) };
}
