import type { ClientSurface } from '../client-surface';
import type { OutboxClaim, OutboxStore } from '../contracts/outbox-store';
import { ValidationError, type ValidationIssue } from '../errors';
import { ClaimHolder } from '../payments/claims';
import { ConcurrencyLimit } from '../payments/concurrency-limit';
import { ownerId } from '../payments/ids';
import { pause, wakeableSleep } from '../payments/time';
import { type Held, type RelayContext, relayPayment } from './payment';
import { RelayLog } from './relay-log';
import { databaseRetryIn } from './retry-timing';
import type { OutboxRelay, OutboxRelayOptions } from './types';

/**
 * For outbox store implementers (`db.outbox.start` uses it): runs a relay on `store` that
 * sends each due intent once under its stored reference id, waits it to its final status
 * and delivers the outcome (`onSettled`), on any number of instances at once.
 * Bad options: a ValidationError naming the option, nothing started. `momo` is a
 * `MomoClient` (typed by its public face, which a `MomoClient` is).
 */
export function startOutboxRelay<Tx>(
  momo: ClientSurface,
  store: OutboxStore<Tx>,
  options: OutboxRelayOptions<Tx> = {},
): OutboxRelay {
  checkOptions(options);
  const relay = new Relay(momo, store, options);
  return { stop: () => relay.stop() };
}

function checkOptions(options: OutboxRelayOptions<never>): void {
  if (options === null || typeof options !== 'object') {
    throw new ValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  const issues: ValidationIssue[] = [];
  for (const name of ['concurrency', 'pollIntervalMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      issues.push({ path: name, message: 'must be a whole number, 1 or more' });
    }
  }
  if (options.onSettled !== undefined && typeof options.onSettled !== 'function') {
    issues.push({ path: 'onSettled', message: 'must be a function (payment, tx)' });
  }
  if (options.tenantClient !== undefined && typeof options.tenantClient !== 'function') {
    issues.push({ path: 'tenantClient', message: 'must be a function (tenant) => client' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * Claims due rows up to its free send slots, oldest first: on a wake-up of the store (a
 * NOTIFY), after each freed slot when the last claim was full, and every `pollIntervalMs`.
 * Renews the leases of everything it holds at a third of the store's `leaseMs`, in one
 * statement (the kernel's claim holder).
 */
class Relay<Tx> {
  readonly #ctx: RelayContext<Tx>;
  readonly #sendSlots: ConcurrencyLimit;
  readonly #pollMs: number;
  readonly #owner = ownerId('relay');
  readonly #held = new Map<string, Held>();
  readonly #stop = new AbortController();
  readonly #unsubscribe: () => void;
  readonly #claims: ClaimHolder;
  readonly #loop: Promise<void>;
  #lastFull = false;
  #woken = false;
  #wake: (() => void) | undefined;
  #idle: (() => void) | undefined;
  #stopped: Promise<void> | undefined;

  constructor(momo: ClientSurface, store: OutboxStore<Tx>, options: OutboxRelayOptions<Tx>) {
    this.#ctx = {
      momo,
      store,
      onSettled: options.onSettled,
      tenantClient: options.tenantClient,
      log: new RelayLog(options.logger),
      stopping: this.#stop.signal,
    };
    this.#sendSlots = new ConcurrencyLimit(options.concurrency ?? 16);
    this.#pollMs = options.pollIntervalMs ?? 1000;
    this.#unsubscribe = store.subscribe(() => this.#nudge());
    const log = this.#ctx.log;
    this.#claims = new ClaimHolder(
      store.leaseMs,
      { all: (claims) => store.renew(claims.map((claim) => claim.token)) },
      { renewed: () => log.working('database'), failed: (error) => log.failing('database', error) },
    );
    this.#loop = this.#run();
  }

  stop(): Promise<void> {
    if (!this.#stopped) {
      this.#stop.abort();
      this.#unsubscribe();
      this.#stopped = (async () => {
        await this.#loop;
        while (this.#held.size > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
      })();
    }
    return this.#stopped;
  }

  #nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    const { store, log } = this.#ctx;
    for (let failures = 0; !this.#stop.signal.aborted; ) {
      const free = this.#sendSlots.free;
      if (free > 0) {
        this.#woken = false;
        let claims: OutboxClaim[];
        const askedAt = Date.now();
        try {
          claims = await store.claim(this.#owner, free, this.#scope());
          log.working('database');
          failures = 0;
        } catch (error) {
          log.failing('database', error);
          await pause(databaseRetryIn(failures++), this.#stop.signal);
          continue;
        }
        this.#lastFull = claims.length === free;
        for (const claim of claims) this.#relay(claim, askedAt);
        if (this.#lastFull) continue; // more may be due: claim again once a slot is free
      }
      await this.#nextWake();
    }
  }

  /**
   * Whose intents this relay claims: every tenant's with `tenantClient`; else only its
   * client's tenant's (`null`: those of no tenant), which its client alone may send.
   */
  #scope(): string | null | undefined {
    if (this.#ctx.tenantClient) return undefined;
    return this.#ctx.momo.tenant ?? null;
  }

  /** Resolves on a wake-up, a freed slot after a full claim, the poll interval, or stop(). */
  #nextWake(): Promise<void> {
    // A wake-up counts only with a slot free: with every slot busy, resolving at once
    // would spin on promises and starve the I/O that frees one.
    const ready = this.#woken && this.#sendSlots.free > 0;
    if (ready || this.#stop.signal.aborted) return Promise.resolve();
    const next = wakeableSleep(this.#pollMs, this.#stop.signal);
    this.#wake = next.wake;
    return next.done
      .catch(() => undefined) // stop(): resolves at once
      .finally(() => {
        if (this.#wake === next.wake) this.#wake = undefined;
      });
  }

  #relay(claim: OutboxClaim, askedAt: number): void {
    const held: Held = { claim, lease: this.#claims.hold(claim.key, claim.token, askedAt) };
    this.#held.set(claim.token, held);
    this.#sendSlots.tryAcquire(); // free: claimed up to the free slots, by this loop alone
    let freed = false;
    const freeSendSlot = () => {
      if (freed) return;
      freed = true;
      this.#sendSlots.release();
      // Rows may be due (the last claim was full, or a wake-up came while slots were busy).
      if (this.#lastFull || this.#woken) this.#nudge();
    };
    relayPayment(this.#ctx, held, freeSendSlot)
      .catch((error: unknown) => this.#ctx.log.failing('relay', error))
      .finally(() => {
        freeSendSlot();
        void this.#claims.letGo(held.lease);
        this.#held.delete(claim.token);
        if (this.#held.size === 0) this.#idle?.();
      });
  }
}
