import type { Engine } from '../engine';
import type { Fault, Party, Product } from '../types';
import { batchesOf, type PageBatch } from './batches';
import { type PagePayer, payersOf } from './subscriptions';

/**
 * What the payer's phone page shows, computed from the engine's public state, so that any
 * kind of operation the engine stores (whatever its body) appears with its kind and status.
 */
export interface PageSnapshot {
  readonly targetEnvironment: string;
  readonly currency: string;
  readonly items: readonly PageItem[];
  /** Batches run against the simulator (docs/simulator.md, "Batches on the page"). */
  readonly batches: readonly PageBatch[];
  /** Each payer's pre-approvals and the charges under them ("Subscriptions on the page"). */
  readonly payers: readonly PagePayer[];
  readonly callbacks: readonly PageCallback[];
  readonly balances: readonly { product: Product; availableBalance: string; currency: string }[];
  readonly faults: readonly { id: number; fault: Fault; remaining: number }[];
  readonly apiUsers: readonly PageApiUser[];
}

/** A transaction or a consent request: anything the payer may be asked to decide. */
export interface PageItem {
  readonly id: string;
  /** `collection.requestToPay`, `disbursement.transfer`, `consent`... */
  readonly kind: string;
  readonly status: string;
  /** Whether Approve and Decline apply now. */
  readonly decidable: boolean;
  readonly amount?: string;
  readonly currency?: string;
  /** Each party-shaped field of the request body: `payer`, `payee`, `intendedPayer`... */
  readonly parties: readonly { role: string; party: string }[];
  readonly reason?: string;
  /** The partner whose credentials created it, when the simulator has several. */
  readonly partner?: string;
  readonly createdAt: number;
}

export interface PageCallback {
  readonly index: number;
  readonly url: string;
  readonly method: string;
  readonly status?: number;
  readonly error?: string;
  readonly latencyMs?: number;
  readonly sentAt: number;
  readonly body: string;
}

export interface PageApiUser {
  readonly id: string;
  readonly providerCallbackHost?: string;
  /** `configured`: the simulator's own API user; `provisioned`: made by the sandbox API. */
  readonly origin: 'configured' | 'provisioned';
  readonly hasKey: boolean;
}

const PRODUCTS: readonly Product[] = ['disbursement', 'collection', 'remittance'];
/** Statuses from which an operation can still be approved or declined. */
const OPEN = new Set(['PENDING']);

export function snapshot(engine: Engine): PageSnapshot {
  const { options, ledger, callbacks, faults, apiUsers } = engine.internals;
  const all = engine.transactions;
  const transactions: PageItem[] = all.map((tx) => {
    const body = record(tx.body);
    return {
      id: tx.referenceId,
      kind: tx.operation,
      status: tx.status,
      decidable: OPEN.has(tx.status),
      ...text('amount', body.amount),
      ...text('currency', body.currency),
      parties: parties(body),
      ...(tx.reason ? { reason: tx.reason.code } : {}),
      ...(tx.partner !== undefined ? { partner: tx.partner } : {}),
      createdAt: tx.createdAt,
    };
  });
  const consents: PageItem[] = engine.consentRequests.map((consent) => ({
    id: consent.authReqId,
    kind: 'consent',
    status: consent.status.toUpperCase(),
    decidable: consent.status === 'pending',
    parties: [{ role: 'account holder', party: `MSISDN ${consent.msisdn}` }],
    createdAt: consent.expiresAt - options.consentExpiresInSeconds * 1000,
  }));
  return {
    targetEnvironment: options.targetEnvironment,
    currency: options.currency,
    items: [...transactions, ...consents].sort((a, b) => b.createdAt - a.createdAt),
    batches: batchesOf(all),
    payers: payersOf(all, partnersOf(engine)),
    callbacks: callbacks.log.map((entry, index) => ({
      index,
      url: entry.url,
      method: entry.method,
      ...(entry.status !== undefined ? { status: entry.status } : {}),
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      ...(entry.latencyMs !== undefined ? { latencyMs: entry.latencyMs } : {}),
      sentAt: entry.sentAt,
      body: JSON.stringify(entry.body, null, 2) ?? '',
    })),
    balances: PRODUCTS.map((product) => ({
      product,
      availableBalance: ledger.formattedBalance(product),
      currency: options.currency,
    })),
    faults: faults.list(),
    apiUsers: [
      { id: options.apiUser.id, origin: 'configured', hasKey: true },
      ...apiUsers.list().map((user) => ({ ...user, origin: 'provisioned' as const })),
    ],
  };
}

/** Each pre-approval's partner: the API user that asked for it (its payee). */
function partnersOf(engine: Engine): Map<string, string> {
  const partners = new Map<string, string>();
  for (const tx of engine.internals.ledger.all()) {
    const user = tx.extra?.payeeUser;
    if (tx.operation === 'collection.preApproval' && user) partners.set(tx.referenceId, user);
  }
  return partners;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function text<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return typeof value === 'string' || typeof value === 'number'
    ? ({ [key]: String(value) } as { [P in K]: string })
    : {};
}

function parties(body: Record<string, unknown>): { role: string; party: string }[] {
  return Object.entries(body).flatMap(([role, value]) => {
    const party = record(value) as Partial<Party>;
    return typeof party.partyIdType === 'string' && typeof party.partyId === 'string'
      ? [{ role, party: `${party.partyIdType} ${party.partyId}` }]
      : [];
  });
}
