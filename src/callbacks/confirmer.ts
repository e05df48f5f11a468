import { referenceKey } from '../core/reference-id';
import { sleep } from '../core/time';
import { isFinal, type StatusLike } from '../schemas/common';

/** What one status lookup said about a reference id: a result (or none), or its failure. */
export type Confirmation =
  | { result: StatusLike | undefined; error?: undefined }
  | { result?: undefined; error: unknown };

export interface ConfirmLimits {
  /** Status lookups confirming callbacks at once; more wait for a slot (or get 'busy'). */
  maxConfirms: number;
  /** How long a non-final confirmation answers for its id without another lookup. */
  confirmIntervalMs: number;
}

/** Told once per lookup made, whatever number of callbacks share it. */
export interface ConfirmEvents {
  /** A final result: wake the waits, tell the journal and other instances (awaited). */
  final(referenceId: string, result: StatusLike): Promise<void>;
  failed(referenceId: string, error: unknown): void;
}

type Lookup = () => Promise<StatusLike | undefined>;

/** Bounded, so that forged ids cannot grow the memory of what was confirmed. */
const MAX_KEPT = 10_000;

/**
 * Ids whose confirmation waits for a slot (or for the end of an interval), at most: ten
 * times 1,000 payments settling together. Each id is queued once, however many
 * callbacks name it, and only ids the receiver knows pending are queued.
 */
export const MAX_QUEUED = 10_000;

interface Kept {
  confirmation: Confirmation;
  at: number;
  final: boolean;
}

interface Queued {
  referenceId: string;
  lookup: Lookup;
  promise: Promise<Confirmation>;
  start(confirmation: Promise<Confirmation>): void;
  /** Its place in `#order`: an entry with another number is a stale one, skipped. */
  seq: number;
}

/**
 * Confirms callbacks by status lookups at a fixed cost, whatever arrives: one lookup per
 * reference id at a time (every callback naming it shares it), a final result kept and
 * reused, anything else reused for `confirmIntervalMs`, and at most `maxConfirms`
 * lookups at once; the others wait in a queue, one entry per id, served oldest and
 * newest in turn (`queue`), or
 * are refused 'busy' (`confirm`). A callback claiming a final status that a kept PENDING
 * contradicts is held until the interval ends and then confirmed by one fresh lookup
 * shared with every other such callback: a genuine callback right after forged ones is
 * still believed, and forged callbacks cost one lookup per id per interval.
 */
export class Confirmer {
  readonly #limits: ConfirmLimits;
  readonly #events: ConfirmEvents;
  readonly #inFlight = new Map<string, Promise<Confirmation>>();
  readonly #queued = new Map<string, Queued>();
  /** The queued ids, oldest first (stale entries of ids moved or started are skipped). */
  #order: { key: string; seq: number }[] = [];
  #head = 0;
  #seq = 0;
  /** Slots are given alternately to the oldest and to the newest queued id. */
  #newestNext = false;
  readonly #held = new Map<string, Promise<Confirmation>>();
  readonly #kept = new Map<string, Kept>();

  constructor(limits: ConfirmLimits, events: ConfirmEvents) {
    this.#limits = limits;
    this.#events = events;
  }

  /**
   * A kept confirmation that answers a callback claiming `claimed` with no lookup: a
   * final one, or a recent one the claim does not contradict.
   */
  reuse(referenceId: string, claimed: string): Confirmation | undefined {
    const kept = this.#fresh(referenceKey(referenceId));
    return kept && !contradicts(kept, claimed) ? kept.confirmation : undefined;
  }

  /** The confirmation of `referenceId`, or `'busy'` when `maxConfirms` lookups are running. */
  confirm(referenceId: string, lookup: Lookup, claimed: string): Promise<Confirmation | 'busy'> {
    const key = referenceKey(referenceId);
    const reused = this.reuse(referenceId, claimed);
    if (reused) return Promise.resolve(reused);
    const shared = this.#shared(key);
    if (shared) return shared;
    if (this.#fresh(key)) return this.#hold(key, referenceId, lookup);
    if (this.#inFlight.size >= this.#limits.maxConfirms) return Promise.resolve('busy');
    return this.#start(key, referenceId, lookup);
  }

  /**
   * The confirmation of `referenceId`, at once when a slot is free, else once one is (the
   * oldest and the newest queued ids in turn); `'full'` when `MAX_QUEUED` ids wait already.
   */
  queue(referenceId: string, lookup: Lookup, claimed: string): Promise<Confirmation> | 'full' {
    const key = referenceKey(referenceId);
    const reused = this.reuse(referenceId, claimed);
    if (reused) return Promise.resolve(reused);
    const shared = this.#shared(key);
    if (shared) return shared;
    if (this.#queued.size + this.#held.size >= MAX_QUEUED) return 'full';
    if (this.#fresh(key)) return this.#hold(key, referenceId, lookup);
    return this.#enqueue(key, referenceId, lookup);
  }

  /** The lookup running, queued or held for this id, which every callback naming it shares. */
  #shared(key: string): Promise<Confirmation> | undefined {
    return this.#inFlight.get(key) ?? this.#queued.get(key)?.promise ?? this.#held.get(key);
  }

  /** A kept confirmation still answering for its id: final, or within the interval. */
  #fresh(key: string): Kept | undefined {
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    return kept.final || Date.now() - kept.at < this.#limits.confirmIntervalMs ? kept : undefined;
  }

  /** One timer per id, however many callbacks are held on it; then queued like any id. */
  #hold(key: string, referenceId: string, lookup: Lookup): Promise<Confirmation> {
    const at = (this.#kept.get(key)?.at ?? 0) + this.#limits.confirmIntervalMs;
    const later = sleep(Math.max(0, at - Date.now())).then(() => {
      this.#held.delete(key);
      return this.#shared(key) ?? this.#enqueue(key, referenceId, lookup);
    });
    this.#held.set(key, later);
    return later;
  }

  /**
   * A queued id named again by a callback moves to the newest end: the provider's
   * callback for an id a flood of forgeries queued earlier is served at the next turn of
   * the newest, not after the whole flood.
   */
  renew(referenceId: string): void {
    const key = referenceKey(referenceId);
    const queued = this.#queued.get(key);
    if (!queued || queued.seq === this.#seq) return; // not queued, or the newest already
    queued.seq = ++this.#seq;
    this.#order.push({ key, seq: queued.seq });
    this.#compact();
  }

  #enqueue(key: string, referenceId: string, lookup: Lookup): Promise<Confirmation> {
    let start: Queued['start'] = () => {};
    const promise = new Promise<Confirmation>((resolve) => {
      start = resolve;
    });
    const seq = ++this.#seq;
    this.#queued.set(key, { referenceId, lookup, promise, start, seq });
    this.#order.push({ key, seq });
    this.#next();
    return promise;
  }

  /**
   * Starts queued lookups while slots are free, alternately the oldest and the newest
   * queued id. Oldest-only let a flood of forged callbacks for known ids (each id queued
   * once, each worth a lookup) put a genuine callback arriving after it behind every one
   * of them: 30 s for 1,000 at the provider's pace. The newest turn serves it within a
   * few lookups, and the oldest turn still serves every id in time.
   */
  #next(): void {
    while (this.#inFlight.size < this.#limits.maxConfirms) {
      const taken = this.#take();
      if (!taken) return;
      const [key, queued] = taken;
      this.#queued.delete(key);
      queued.start(this.#start(key, queued.referenceId, queued.lookup));
    }
  }

  /** The next queued id to start (oldest and newest in turn), or undefined when none. */
  #take(): [string, Queued] | undefined {
    this.#newestNext = !this.#newestNext;
    while (this.#head < this.#order.length) {
      const entry = this.#newestNext
        ? (this.#order.pop() as { key: string; seq: number })
        : (this.#order[this.#head++] as { key: string; seq: number });
      const queued = this.#queued.get(entry.key);
      if (queued?.seq === entry.seq) {
        this.#compact();
        return [entry.key, queued];
      }
    }
    this.#order = [];
    this.#head = 0;
    return undefined;
  }

  /** Drops stale entries once they outnumber the live ones (memory bounded by the queue). */
  #compact(): void {
    const entries = this.#order.length - this.#head;
    if (entries < 1024 || entries < 2 * this.#queued.size) return;
    this.#order = this.#order
      .slice(this.#head)
      .filter((entry) => this.#queued.get(entry.key)?.seq === entry.seq);
    this.#head = 0;
  }

  #start(key: string, referenceId: string, lookup: Lookup): Promise<Confirmation> {
    const made = (async (): Promise<Confirmation> => {
      await undefined; // in flight (and shared) before the lookup begins
      let confirmation: Confirmation;
      try {
        const result = await lookup();
        if (result !== undefined && isFinal(result)) {
          await this.#events.final(referenceId, result);
        }
        confirmation = { result };
      } catch (error) {
        this.#events.failed(referenceId, error);
        confirmation = { error };
      }
      this.#inFlight.delete(key);
      this.#keep(key, confirmation);
      this.#next();
      return confirmation;
    })();
    this.#inFlight.set(key, made);
    return made;
  }

  #keep(key: string, confirmation: Confirmation): void {
    const final = confirmation.result !== undefined && isFinal(confirmation.result);
    this.#kept.delete(key); // re-inserted: newest last
    this.#kept.set(key, { confirmation, at: Date.now(), final });
    if (this.#kept.size > MAX_KEPT) {
      const oldest = this.#kept.keys().next().value;
      if (oldest !== undefined) this.#kept.delete(oldest);
    }
  }
}

/** A final claim that a kept, not final, result contradicts: to be looked up again. */
function contradicts(kept: Kept, claimed: string): boolean {
  return (
    !kept.final &&
    kept.confirmation.result !== undefined &&
    isFinal({ status: claimed }) &&
    claimed !== kept.confirmation.result.status
  );
}
