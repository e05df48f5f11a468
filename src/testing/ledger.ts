import type { Clock } from './clock';
import { add, compare, type Decimal, formatDecimal, parseDecimal, subtract } from './decimal';
import { kindOf, preApprovalView } from './kinds';
import { type PlannedOutcome, reason as reasonFor } from './outcomes';
import type { Operation, Party, Product, Reason, SimTransaction, TransactionStatus } from './types';

/** What a result body shows of the request (MTN's TransferResult / RequestToPayResult fields). */
export interface TxFields {
  /** Absent only where the request moves no money (a pre-approval, an invoice cancellation). */
  amount?: string;
  currency: string;
  externalId?: string;
  payee?: Party;
  payer?: Party;
  payerMessage?: string;
  payeeNote?: string;
}

/** A stored transaction. Mutated only here (finalize) and by reset(). */
export interface TxRecord extends TxFields {
  readonly referenceId: string;
  readonly operation: Operation;
  readonly product: Product;
  readonly body: unknown;
  readonly callbackUrl: string | undefined;
  readonly callbackMethod: 'POST' | 'PUT';
  /** The API user whose creating call stored it (callbacks go to its providerCallbackHost). */
  readonly createdBy?: string;
  /** The caller's journal tag, when the client sent it (X-Momo-Simulator-Tag). */
  readonly tag?: string;
  /** The partner that created it, when the simulator has several. */
  readonly partner?: string;
  readonly createdAt: number;
  readonly settlesAt: number | undefined;
  readonly financialTransactionId: string;
  readonly plan: PlannedOutcome;
  /** Sign of the effect on the product's balance when SUCCESSFUL. */
  readonly effect: 'debit' | 'credit' | 'none';
  /** A business rule checked when the transaction becomes final (e.g. refund rules). */
  readonly check?: (tx: TxRecord, ledger: Ledger) => Reason | undefined;
  /** Extra data a route keeps (e.g. referenceIdToRefund). */
  readonly extra?: Readonly<Record<string, string>>;
  /** The lookup and callback body, when it is not the TransferResult shape. */
  readonly render?: (tx: TxRecord) => Record<string, unknown>;
  status: TransactionStatus;
  reason: Reason | undefined;
  finalizedAt: number | undefined;
  /** When an approved pre-approval was cancelled. */
  cancelledAt: number | undefined;
}

/**
 * A time limit: still PENDING `afterMs` after acceptance (undecided, or decided later than
 * that), the transaction ends FAILED with `reason` (an invoice's validityDuration).
 */
export interface Deadline {
  readonly afterMs: number;
  readonly reason: Reason;
}

export type NewTx = Omit<
  TxRecord,
  | 'status'
  | 'reason'
  | 'finalizedAt'
  | 'createdAt'
  | 'settlesAt'
  | 'financialTransactionId'
  | 'cancelledAt'
> & { readonly deadline?: Deadline };

type Timer = ReturnType<typeof setTimeout>;

/** setTimeout holds at most 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** How early a timer may fire against the clock and still count as on time. */
const EARLY_MS = 5;

/** Transactions, balances and settlement timers. */
export class Ledger {
  private readonly txs = new Map<string, TxRecord>();
  private readonly pending = new Set<TxRecord>();
  /**
   * No pending transaction settles before this (a lower bound): settleDue, called on every
   * request, returns at once until then instead of walking every pending transaction.
   */
  private nextDue = Number.POSITIVE_INFINITY;
  private readonly timers = new Map<string, Timer>();
  /** Pre-approvals by payer (payerKey): a request to pay finds its payer's without a scan. */
  private readonly preApprovalsByPayer = new Map<string, TxRecord[]>();
  /** Pre-approvals by their lower-case preApprovalId: a cancel finds its own without a scan. */
  private readonly preApprovalsById = new Map<string, TxRecord>();
  private readonly balances = new Map<Product, Decimal>();
  private sequence = 0;

  constructor(
    private readonly settleMs: number,
    private readonly initialBalance: string,
    private readonly onFinal: (tx: TxRecord) => void,
    private readonly clock: Clock,
  ) {}

  has(referenceId: string): boolean {
    return this.txs.has(referenceId.toLowerCase());
  }

  get(referenceId: string): TxRecord | undefined {
    return this.txs.get(referenceId.toLowerCase());
  }

  all(): TxRecord[] {
    return [...this.txs.values()];
  }

  /** Every pre-approval whose payer is `payer` (same id by payerKey), in acceptance order. */
  preApprovalsOf(payer: Party): readonly TxRecord[] {
    return this.preApprovalsByPayer.get(payerKey(payer)) ?? [];
  }

  /** The pre-approval of this preApprovalId (any letter case), if any. */
  preApprovalById(preApprovalId: string): TxRecord | undefined {
    return this.preApprovalsById.get(preApprovalId.toLowerCase());
  }

  /** Stores an accepted transaction as PENDING and schedules its settlement. */
  add(input: NewTx, now: number): TxRecord {
    this.sequence += 1;
    const { deadline, ...fields } = input;
    const decidedAt = input.plan.kind === 'never' ? undefined : now + this.settleMs;
    const expiresAt = deadline ? now + deadline.afterMs : undefined;
    // The deadline wins when the outcome would come later than it, or never.
    const expiresFirst =
      deadline !== undefined &&
      expiresAt !== undefined &&
      (decidedAt === undefined || expiresAt < decidedAt);
    const tx: TxRecord = {
      ...fields,
      ...(expiresFirst ? { plan: { kind: 'fail', reason: deadline.reason } } : {}),
      createdAt: now,
      settlesAt: expiresFirst ? expiresAt : decidedAt,
      financialTransactionId: String(100_000_000 + this.sequence),
      status: 'PENDING',
      reason: undefined,
      finalizedAt: undefined,
      cancelledAt: undefined,
    };
    this.txs.set(tx.referenceId.toLowerCase(), tx);
    if (tx.operation === 'collection.preApproval' && tx.payer) {
      const key = payerKey(tx.payer);
      const list = this.preApprovalsByPayer.get(key) ?? [];
      list.push(tx);
      this.preApprovalsByPayer.set(key, list);
    }
    const preApprovalId = tx.extra?.preApprovalId;
    if (tx.operation === 'collection.preApproval' && preApprovalId) {
      this.preApprovalsById.set(preApprovalId.toLowerCase(), tx);
    }
    this.pending.add(tx);
    if (tx.settlesAt !== undefined) this.nextDue = Math.min(this.nextDue, tx.settlesAt);
    if (tx.settlesAt !== undefined) this.schedule(tx, tx.settlesAt);
    return tx;
  }

  /** Finalizes, in order, every pending transaction whose time has come. */
  settleDue(now: number): void {
    if (now < this.nextDue) return;
    const due: TxRecord[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const tx of this.pending) {
      if (tx.settlesAt === undefined) continue;
      if (tx.settlesAt <= now) due.push(tx);
      else next = Math.min(next, tx.settlesAt);
    }
    this.nextDue = next;
    due.sort((a, b) => (a.settlesAt ?? 0) - (b.settlesAt ?? 0));
    for (const tx of due) this.finalize(tx, now);
  }

  /** Marks an approved pre-approval cancelled (its lookup stays SUCCESSFUL). */
  cancel(tx: TxRecord, now: number): void {
    tx.cancelledAt = now;
  }

  /** Forces an outcome now (sim.settle, sim.decide). */
  force(
    referenceId: string,
    status: 'SUCCESSFUL' | 'FAILED',
    reason?: Reason,
    caller = 'settle',
  ): void {
    const tx = this.get(referenceId);
    if (!tx) throw new Error(`${caller}: no transaction ${referenceId}`);
    if (tx.status !== 'PENDING') {
      throw new Error(`${caller}: ${referenceId} is already ${tx.status}`);
    }
    const forced = status === 'FAILED' ? (reason ?? reasonFor('INTERNAL_PROCESSING_ERROR')) : null;
    this.finalize(tx, this.clock.now(), forced);
  }

  balance(product: Product): Decimal {
    return this.balances.get(product) ?? parseDecimal(this.initialBalance);
  }

  formattedBalance(product: Product): string {
    return formatDecimal(this.balance(product));
  }

  reset(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.txs.clear();
    this.preApprovalsByPayer.clear();
    this.preApprovalsById.clear();
    this.pending.clear();
    this.balances.clear();
    this.sequence = 0;
  }

  /**
   * `forced`: undefined = decide by the rules; null = SUCCESSFUL; a reason = FAILED.
   */
  private finalize(tx: TxRecord, now: number, forced?: Reason | null): void {
    if (tx.status !== 'PENDING') return;
    let failure: Reason | undefined;
    if (forced !== undefined) failure = forced ?? undefined;
    else if (tx.plan.kind === 'fail') failure = tx.plan.reason;
    else failure = tx.check?.(tx, this) ?? this.fundsProblem(tx);
    if (!failure) this.apply(tx);
    tx.status = failure ? 'FAILED' : 'SUCCESSFUL';
    tx.reason = failure;
    tx.finalizedAt = now;
    this.pending.delete(tx);
    const timer = this.timers.get(tx.referenceId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(tx.referenceId);
    this.onFinal(tx);
  }

  private fundsProblem(tx: TxRecord): Reason | undefined {
    if (tx.effect !== 'debit' || tx.amount === undefined) return undefined;
    const short = compare(this.balance(tx.product), parseDecimal(tx.amount)) < 0;
    return short ? reasonFor('NOT_ENOUGH_FUNDS') : undefined;
  }

  private apply(tx: TxRecord): void {
    if (tx.effect === 'none' || tx.amount === undefined) return;
    const current = this.balance(tx.product);
    const amount = parseDecimal(tx.amount);
    const next = tx.effect === 'debit' ? subtract(current, amount) : add(current, amount);
    this.balances.set(tx.product, next);
  }

  private schedule(tx: TxRecord, at: number): void {
    const delay = Math.min(Math.max(at - this.clock.now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(tx.referenceId);
      if (tx.status !== 'PENDING') return;
      // Far away (a delay beyond what setTimeout holds): wait again. Otherwise settle up to
      // `at`, since timers may fire a millisecond early against the clock.
      const now = this.clock.now();
      if (at - now > EARLY_MS) this.schedule(tx, at);
      else this.settleDue(Math.max(now, at));
    }, delay);
    if (typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
    this.timers.set(tx.referenceId, timer);
  }
}

/** One key per account (`MSISDN 233241234450`): an MSISDN with or without `+`, other ids in any case. */
export function payerKey(party: Party): string {
  const id =
    party.partyIdType === 'MSISDN' ? party.partyId.replace(/^\+/, '') : party.partyId.toLowerCase();
  return `${party.partyIdType} ${id}`;
}

export function toPublic(tx: TxRecord, now: number): SimTransaction {
  const preApproval = preApprovalView(tx, now);
  return {
    referenceId: tx.referenceId,
    operation: tx.operation,
    kind: kindOf(tx.operation),
    ...(tx.payer ? { payer: { ...tx.payer } } : {}),
    ...(tx.payee ? { payee: { ...tx.payee } } : {}),
    ...(tx.amount !== undefined ? { amount: tx.amount, currency: tx.currency } : {}),
    status: tx.status,
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
    body: tx.body,
    ...(tx.tag !== undefined ? { tag: tx.tag } : {}),
    ...(tx.partner !== undefined ? { partner: tx.partner } : {}),
    ...(tx.callbackUrl !== undefined ? { callbackUrl: tx.callbackUrl } : {}),
    createdAt: tx.createdAt,
    ...(tx.settlesAt !== undefined ? { settlesAt: tx.settlesAt } : {}),
    ...(tx.finalizedAt !== undefined ? { finalizedAt: tx.finalizedAt } : {}),
    financialTransactionId: tx.financialTransactionId,
    ...(preApproval ? { preApproval } : {}),
    ...(tx.extra?.underPreApproval !== undefined
      ? { underPreApproval: tx.extra.underPreApproval }
      : {}),
  };
}
