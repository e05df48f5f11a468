import type { ClientSurface } from '../client-surface';
import type { Subscription, SubscriptionFilter } from '../contracts/subscription-store';
import { ValidationError } from '../errors';
import { DEFAULT_LEASE_MS } from '../payments/claims';
import { cancelMandates } from './cancel';
import { changePlan, pause, resume } from './changes';
import { requestMandate, stop } from './mandate';
import { owedOnCharge } from './notify';
import { runPass } from './pass';
import { checkPlan, checkSubscribe, epochMs, type PlanInput, type SubscribeInput } from './plan';
import { ids } from './provider';
import { buildReport, type SubscriptionsReport } from './report';
import { startRunner } from './runner';
import { TenantSubscriptionStore } from './tenant-store';
import { planTerms } from './terms';
import type {
  RunDueOptions,
  RunDueReport,
  SubscriptionRunner,
  SubscriptionRunnerOptions,
  SubscriptionsOptions,
} from './types';
import { unanswered } from './unanswered';

const issue = (path: string, message: string) => new ValidationError([{ path, message }]);

/**
 * What `Subscriptions` (facade.ts) does once loaded: recurring collections on the
 * provider's pre-approvals (docs/subscriptions.md).
 */
export class SubscriptionEngine {
  readonly #momo: ClientSurface;
  readonly #options: SubscriptionsOptions;
  /** The options' store as this client's tenant sees it (its own records only). */
  readonly #store: TenantSubscriptionStore;
  readonly #secret: string;
  readonly #now: () => number;

  /** `options` as `Subscriptions` (the public face, which loads this file) checked them. */
  constructor(momo: ClientSurface, options: SubscriptionsOptions) {
    this.#momo = momo;
    this.#options = options;
    this.#store = new TenantSubscriptionStore(options.store, momo.tenant);
    this.#secret = options.secret;
    this.#now = options.now ?? Date.now;
  }

  /** Defines (or redefines) a plan; a redefinition applies from each subscription's next charge. */
  async plan(input: PlanInput): Promise<void> {
    await this.#store.putPlan(checkPlan(input, this.#options.invoicePayee));
  }

  /**
   * Subscribes a payer: the mandate (a pre-approval stating the plan's terms, under an id
   * derived from the subscription's identity) is asked for now, and the subscription is
   * PENDING_MANDATE until the payer approves it. The same subscription again (same key,
   * plan, payer and start) gives the stored one (and, after a lost store, finds its
   * mandate at the provider); another under a key whose subscription ended or was
   * cancelled is a new subscription (an identity of its own); under a key still in use, a
   * ValidationError.
   */
  async subscribe(input: SubscribeInput): Promise<Subscription> {
    const wanted = checkSubscribe(input);
    const plan = await this.#store.getPlan(wanted.plan);
    if (!plan)
      throw issue('plan', `no plan ${JSON.stringify(wanted.plan)}: define it with subs.plan()`);
    await this.#store.refuseAnothers(wanted.key);
    const existing = await this.#store.get(wanted.key);
    let version = existing?.version;
    if (existing && (this.#isSame(existing.subscription, wanted) || !this.#ended(existing)))
      return this.#same(existing.subscription, wanted);
    const now = this.#now();
    const { partyIdType, partyId } = wanted.payer;
    const defining = [plan.id, partyIdType, partyId, wanted.startAt];
    const tenant = this.#momo.tenant;
    const sub: Subscription = {
      key: wanted.key,
      ...(tenant === undefined ? {} : { tenant }),
      id: await ids.identity(this.#secret, wanted.key, defining),
      plan: plan.id,
      payer: wanted.payer,
      status: 'PENDING_MANDATE',
      startAt: wanted.startAt,
      ...(wanted.endAt !== undefined ? { endAt: wanted.endAt } : {}),
      mandateDays: wanted.mandateDays,
      mandate: { referenceId: '', number: 0, status: 'PENDING' },
      period: 0,
      nextChargeAt: wanted.startAt,
      dueAt: now,
      charges: [],
      createdAt: now,
      updatedAt: now,
    };
    const ctx = { momo: this.#momo, secret: this.#secret, now, waitMs: 0, recheckMs: 0 };
    const save = async (s: Subscription) => {
      s.updatedAt = this.#now();
      version = await this.#store.put(s, version);
      if (version === undefined)
        throw issue('key', `${JSON.stringify(s.key)} was subscribed meanwhile`);
    };
    const step = { ...ctx, save, changed: () => {} };
    sub.mandate = await requestMandate(step, sub, plan, 0, planTerms(plan));
    if (sub.mandate.status === 'DECLINED') stop(sub, sub.mandate.reason ?? 'APPROVAL_REJECTED');
    await save(sub);
    return structuredClone(sub);
  }

  #isSame(stored: Subscription, wanted: ReturnType<typeof checkSubscribe>): boolean {
    return (
      stored.plan === wanted.plan &&
      stored.startAt === wanted.startAt &&
      stored.payer.partyIdType === wanted.payer.partyIdType &&
      stored.payer.partyId === wanted.payer.partyId
    );
  }

  /** A subscription over (cancelled or ended, no outcome still owed its onCharge): its key may be used again. */
  #ended({ subscription: s }: { subscription: Subscription }): boolean {
    const over = s.status === 'CANCELLED' || s.status === 'ENDED';
    return over && !s.charges.some(owedOnCharge);
  }

  #same(stored: Subscription, wanted: ReturnType<typeof checkSubscribe>): Subscription {
    if (!this.#isSame(stored, wanted))
      throw issue('key', `${JSON.stringify(wanted.key)} is already used by another subscription`);
    return stored;
  }

  /** The subscription, or undefined. */
  async get(key: string): Promise<Subscription | undefined> {
    const stored = await this.#store.get(key);
    if (!stored) return undefined;
    const { lease: _, ...subscription } = stored.subscription;
    return subscription;
  }

  /** Subscriptions by status, or due before a time (read from the due index: only those due). */
  async list(
    filter: { status?: Subscription['status']; dueBefore?: Date | number; limit?: number } = {},
  ): Promise<Subscription[]> {
    const query: SubscriptionFilter = {
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...(filter.dueBefore !== undefined ? { dueBefore: epochMs(filter.dueBefore) } : {}),
      ...(filter.limit !== undefined ? { limit: filter.limit } : {}),
    };
    const found = await this.#store.list(query);
    return found.map(({ lease: _, ...subscription }) => subscription);
  }

  /**
   * Cancels: no charge is made again, and every approved mandate of this subscription
   * (its own, and every one it replaced by a renewal or a plan change) is cancelled at the
   * provider, never another subscription's. One the provider's list cannot tell apart
   * from another is left approved, and the reason says so. A charge already sent runs its
   * course. Resolves with the subscription.
   */
  async cancel(key: string): Promise<Subscription> {
    for (;;) {
      const stored = await this.#store.get(key);
      if (!stored) throw issue('key', `no subscription ${JSON.stringify(key)}`);
      const sub = stored.subscription;
      if (sub.status === 'CANCELLED' || sub.status === 'ENDED') return sub;
      const left = await cancelMandates(this.#momo, sub, this.#now());
      stop(sub, 'cancelled');
      if (left.length > 0) {
        const which = left.map((m) => m.number).join(', ');
        sub.reason = `cancelled; mandate ${which} left approved at the provider: it cannot be told apart from another of this payer's`;
      }
      // An outcome still owed its onCharge keeps it due: the next pass runs onCharge. So
      // does a mandate the payer has not answered: watched, cancelled once approved (ST10).
      if (sub.charges.some(owedOnCharge) || unanswered(sub).length > 0) sub.dueAt = this.#now();
      sub.lease = undefined;
      sub.updatedAt = this.#now();
      if ((await this.#store.put(sub, stored.version)) !== undefined) return sub;
    }
  }

  /** Asks for a new mandate stating `planId`'s terms; applied from the first period after its approval. */
  changePlan(key: string, planId: string, options: { from?: Date | number } = {}) {
    return changePlan(this.#changeContext(), key, planId, options);
  }

  /** Skips the periods starting from now until `until` (not charged, not in arrears). */
  pause(key: string, options: { until: Date | number }): Promise<Subscription> {
    if (options === null || typeof options !== 'object')
      throw issue('options', 'must be { until }');
    return pause(this.#changeContext(), key, options.until);
  }

  /** Ends a pause now. */
  resume(key: string): Promise<Subscription> {
    return resume(this.#changeContext(), key);
  }

  /** Finance's report over [from, to): per period who paid, arrears, invoices outstanding, renewals. */
  report(options: { from: Date | number; to: Date | number }): Promise<SubscriptionsReport> {
    const from = epochMs(options?.from);
    const to = epochMs(options?.to);
    if (from === undefined || to === undefined || to <= from) {
      throw issue('to', 'from and to must be Dates (or epoch milliseconds), to after from');
    }
    return buildReport(this.#store, from, to);
  }

  #changeContext() {
    return { momo: this.#momo, store: this.#store, secret: this.#secret, now: this.#now() };
  }

  /** One pass: every subscription due by `now` (default this.now()), each worked on once. */
  runDue(options: RunDueOptions = {}): Promise<RunDueReport> {
    const now = options.now === undefined ? this.#now() : epochMs(options.now);
    if (now === undefined) throw issue('now', 'must be a Date or epoch milliseconds');
    if (options.onCharge !== undefined && typeof options.onCharge !== 'function') {
      throw issue('onCharge', 'must be a function');
    }
    return runPass(this.#passContext(), now, options.onCharge);
  }

  /** A loop of passes, on any number of instances (each subscription worked on by one at a time). */
  start(options: SubscriptionRunnerOptions = {}): SubscriptionRunner {
    return startRunner(options, (onCharge) => runPass(this.#passContext(), this.#now(), onCharge));
  }

  #passContext() {
    return {
      momo: this.#momo,
      store: this.#store,
      secret: this.#secret,
      waitMs: this.#options.waitMs ?? 30_000,
      recheckMs: this.#options.recheckMs ?? 60_000,
      concurrency: this.#options.concurrency ?? 8,
      leaseMs: this.#options.leaseMs ?? DEFAULT_LEASE_MS,
    };
  }
}
