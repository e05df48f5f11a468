import { payerKey } from '../ledger';
import type { SimTransaction } from '../types';

/**
 * The payer's subscriptions as the payer's phone shows them: each payer's pre-approvals
 * (mandates), newest first, and under each the requests to pay made under it (the
 * charges), newest first. Read from the simulator's transactions: a pre-approval's state
 * is the one `sim.transactions` shows on the simulator's clock (docs/simulator.md,
 * "Subscriptions on the page").
 */
export interface PagePayer {
  /** `MSISDN 233241234450`. */
  readonly payer: string;
  readonly mandates: readonly PageMandate[];
}

/** What the payer sees of a pre-approval: states as the provider's listing names them. */
export type MandateStatus = 'PENDING' | 'APPROVED' | 'DECLINED' | 'EXPIRED' | 'CANCELLED';

export interface PageMandate {
  /** The pre-approval's reference id (the one Approve and Decline take). */
  readonly id: string;
  /** Set once approved: the id the provider lists and cancels. */
  readonly preApprovalId?: string;
  /** The partner: the API user that asked for it. */
  readonly partner: string;
  readonly status: MandateStatus;
  /** The reason code of a declined (FAILED) pre-approval. */
  readonly reason?: string;
  readonly decidable: boolean;
  /** The body's `validityTime`, in seconds, as sent. */
  readonly validitySeconds?: number;
  readonly currency?: string;
  /** The body's `payerMessage`, `description` and `frequency`, as sent. */
  readonly payerMessage?: string;
  readonly description?: string;
  readonly frequency?: string;
  readonly createdAt: number;
  readonly approvedAt?: number;
  readonly expiresAt?: number;
  /** The reference id of the older mandate of the same payer and partner this one renews. */
  readonly renews?: string;
  /** The reference id of the newer mandate that renews this one. */
  readonly renewedBy?: string;
  readonly charges: readonly PageCharge[];
}

export interface PageCharge {
  readonly id: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly externalId?: string;
  readonly payerMessage?: string;
  readonly status: string;
  readonly reason?: string;
  readonly createdAt: number;
  readonly finalizedAt?: number;
}

/**
 * Every payer with a pre-approval, the payer asked most recently first. `partners`: each
 * pre-approval's partner (the API user that asked for it) by its reference id.
 */
export function payersOf(
  transactions: readonly SimTransaction[],
  partners: ReadonlyMap<string, string>,
): PagePayer[] {
  const charges = new Map<string, PageCharge[]>();
  for (const tx of transactions) {
    if (tx.underPreApproval === undefined) continue;
    const list = charges.get(tx.underPreApproval) ?? [];
    list.unshift(chargeOf(tx)); // acceptance order reversed: newest first
    charges.set(tx.underPreApproval, list);
  }
  const payers = new Map<string, PageMandate[]>();
  // Newest first; within a payer and partner, each mandate renews the next older one.
  for (const tx of [...transactions].reverse()) {
    if (tx.operation !== 'collection.preApproval' || !tx.payer) continue;
    const payer = payerKey(tx.payer);
    const mandates = payers.get(payer) ?? [];
    const mandate = mandateOf(tx, partners.get(tx.referenceId) ?? '', charges);
    const newer = mandates.findLast((m) => m.partner === mandate.partner);
    const index = newer ? mandates.indexOf(newer) : -1;
    if (newer && index >= 0) mandates[index] = { ...newer, renews: mandate.id };
    mandates.push(newer ? { ...mandate, renewedBy: newer.id } : mandate);
    payers.set(payer, mandates);
  }
  return [...payers].map(([payer, mandates]) => ({ payer, mandates }));
}

function mandateOf(
  tx: SimTransaction,
  partner: string,
  charges: ReadonlyMap<string, PageCharge[]>,
): PageMandate {
  const body = record(tx.body);
  const view = tx.preApproval;
  const validity = Number(body.validityTime);
  return {
    id: tx.referenceId,
    ...(view ? { preApprovalId: view.preApprovalId } : {}),
    partner,
    status: view ? view.state : tx.status === 'FAILED' ? 'DECLINED' : 'PENDING',
    ...(tx.reason ? { reason: tx.reason.code } : {}),
    decidable: tx.status === 'PENDING',
    ...(Number.isFinite(validity) && body.validityTime !== '' ? { validitySeconds: validity } : {}),
    ...text('currency', body.payerCurrency ?? tx.currency),
    ...text('payerMessage', body.payerMessage),
    ...text('description', body.description),
    ...text('frequency', body.frequency),
    createdAt: tx.createdAt,
    ...(view && tx.finalizedAt !== undefined ? { approvedAt: tx.finalizedAt } : {}),
    ...(view?.expiresAt !== undefined ? { expiresAt: view.expiresAt } : {}),
    charges: (view && charges.get(view.preApprovalId)) || [],
  };
}

function chargeOf(tx: SimTransaction): PageCharge {
  const body = record(tx.body);
  return {
    id: tx.referenceId,
    ...(tx.amount !== undefined ? { amount: tx.amount } : {}),
    ...(tx.currency !== undefined ? { currency: tx.currency } : {}),
    ...text('externalId', body.externalId),
    ...text('payerMessage', body.payerMessage),
    status: tx.status,
    ...(tx.reason ? { reason: tx.reason.code } : {}),
    createdAt: tx.createdAt,
    ...(tx.finalizedAt !== undefined ? { finalizedAt: tx.finalizedAt } : {}),
  };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function text<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return typeof value === 'string' || typeof value === 'number'
    ? ({ [key]: String(value) } as { [P in K]: string })
    : {};
}
