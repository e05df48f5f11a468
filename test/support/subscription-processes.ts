/**
 * Subscriptions at scale, in processes (DESIGN 9.3, docs/subscriptions.md "Tested at
 * scale"): the provider (the simulator, its clock stopped and moved only by the driver,
 * each callback delivered twice) in a process of its own, three runner processes on one
 * shared store (`subs.start()`), one of them SIGKILLed every few seconds and started
 * again, and this process as the driver: it defines the plan, subscribes the payers,
 * moves the provider's clock a period at a time (the runners' `now` follows it), and at
 * the end reads what the provider holds.
 */
import { fileURLToPath } from 'node:url';
import { MomoClient, type SubscriptionStore } from 'momo-partner-sdk';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import { Instance } from '../redis/support/instances';
import type { HeldCharge, ProviderCounts } from './workers/subscription-provider';
import type {
  SharedSubscriptionStore,
  SubscriptionRunnerInput,
} from './workers/subscription-runner';

export type { HeldCharge } from './workers/subscription-provider';
export type { SharedSubscriptionStore } from './workers/subscription-runner';

const PROVIDER = fileURLToPath(new URL('./workers/subscription-provider.ts', import.meta.url));
const RUNNER = fileURLToPath(new URL('./workers/subscription-runner.ts', import.meta.url));

export const DAY = 86_400_000;
/** 1 March 2026, 09:00 UTC. */
export const T0 = Date.UTC(2026, 2, 1, 9);
const SECRET = 'subscriptions-at-scale-secret-2026';
const PLAN = 'daily-5';
/** Subscriptions each runner works on at once. */
const CONCURRENCY = 16;
/**
 * Once the clock is at the end, how long the driver waits for anything to move (a
 * subscription ended, a request answered) before it gives up: the last killed runner's
 * lease (15 s), with a wide margin for a loaded 2-core machine.
 */
const FINAL_WAIT_MS = 120_000;

/** The size: CI's by default, the with SUBS_SCALE_SUBSCRIPTIONS=1000 SUBS_SCALE_PERIODS=100. */
export function scale(): { subscriptions: number; periods: number; loseAtPeriod: number } {
  const read = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${name} must be a whole number >= 1`);
    return value;
  };
  const periods = read('SUBS_SCALE_PERIODS', 20);
  return {
    subscriptions: read('SUBS_SCALE_SUBSCRIPTIONS', 100),
    periods,
    /** When the store is lost (SUBS_SCALE_LOSE_AT, default half way). */
    loseAtPeriod: Math.min(read('SUBS_SCALE_LOSE_AT', Math.ceil(periods / 2)), periods),
  };
}

export interface ScaleRun {
  subscriptions: number;
  periods: number;
  /** The shared store, as the runners connect to it. */
  store: SharedSubscriptionStore;
  /** This process's own view of the same store (the driver's `subs`, and the checks). */
  probe: SubscriptionStore;
  /** Deletes every plan and subscription of the store (a lost store), at `loseAtPeriod`. */
  lose: () => Promise<void>;
  loseAtPeriod: number;
  /** A runner is SIGKILLed (and another started in its place) this often (real time). */
  killEveryMs: number;
  /** Progress lines on stderr (the full run's). */
  log?: ((line: string) => void) | undefined;
}

export interface ScaleResult {
  durationMs: number;
  kills: number;
  /** Requests to pay the provider holds. */
  charges: HeldCharge[];
  counts: ProviderCounts;
  /** Creating calls answered, per `METHOD path`; GETs answered. */
  requests: { creates: Record<string, number>; lookups: number };
  /** The store's subscriptions at the end (this process's view). */
  stored: Awaited<ReturnType<SubscriptionStore['list']>>;
  /** Warnings the runners logged (a pass's errors). */
  warnings: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Runners {
  readonly #live: Instance[] = [];
  readonly #all: Instance[] = [];
  kills = 0;

  constructor(readonly input: Omit<SubscriptionRunnerInput, 'now'>) {}

  async spawn(now: number): Promise<void> {
    const runner = await Instance.spawn(RUNNER);
    this.#all.push(runner);
    await runner.call('start', { ...this.input, now });
    this.#live.push(runner);
  }

  /** SIGKILLs the oldest live runner and starts another in its place. */
  async killOne(now: () => number): Promise<void> {
    const victim = this.#live.shift();
    if (!victim) return;
    await victim.kill();
    this.kills++;
    await this.spawn(now());
  }

  async tell(now: number): Promise<void> {
    await Promise.all(this.#live.map((r) => r.call('now', { now }).catch(() => {})));
  }

  warnings(): string[] {
    return this.#all.flatMap((r) => r.logs.map((l) => l.message));
  }

  async close(): Promise<void> {
    await Promise.all(this.#all.map((r) => r.close()));
  }
}

/**
 * Runs the whole scenario and returns what the provider and the store hold at the end.
 * Periods are days from T0; each subscription ends at T0 + `periods` days, so that every
 * one of them is charged exactly `periods` times.
 */
export async function runAtScale(run: ScaleRun): Promise<ScaleResult> {
  const log = run.log ?? (() => {});
  const started = Date.now();
  const provider = await Instance.spawn(PROVIDER);
  const { url, credentials } = await provider.call<{
    url: string;
    credentials: {
      targetEnvironment: string;
      subscriptionKey: string;
      apiUser: { id: string; key: string };
    };
  }>('start', { startAt: T0 });
  const client = { ...credentials, baseUrl: url };
  let now = T0;
  const runners = new Runners({
    provider: client,
    store: run.store,
    secret: SECRET,
    concurrency: CONCURRENCY,
    waitMs: 10_000,
    recheckMs: 60_000,
    intervalMs: 100,
  });
  let killing: Promise<void> | undefined;
  let done = false;
  try {
    const momo = new MomoClient({ ...client, polling: { initialDelayMs: 50, maxDelayMs: 200 } });
    const subs = new Subscriptions(momo, { store: run.probe, secret: SECRET, now: () => now });
    const signUp = async () => {
      await subs.plan({
        id: PLAN,
        amount: '5',
        currency: 'EUR',
        every: { days: 1 },
        retry: ['1h'],
      });
      await inParallel(run.subscriptions, 16, (i) =>
        subs.subscribe({
          key: `member-${i}`,
          plan: PLAN,
          payer: { partyIdType: 'MSISDN', partyId: `2332460${String(i).padStart(5, '0')}` },
          startAt: new Date(T0),
          endAt: new Date(T0 + run.periods * DAY),
          mandateDays: run.periods + 30, // no renewal within the run
        }),
      );
    };
    await signUp();
    log(`subscribed ${run.subscriptions} in ${Date.now() - started} ms`);
    await Promise.all([0, 1, 2].map(() => runners.spawn(now)));
    killing = (async () => {
      while (!done) {
        await sleep(run.killEveryMs * (0.5 + Math.random()));
        if (!done) await runners.killOne(() => now);
      }
    })();
    const counts = () => provider.call<ProviderCounts>('counts');
    const slack = Math.min(Math.floor(run.subscriptions / 4), 3 * CONCURRENCY);
    for (let period = 1; period <= run.periods; period++) {
      // Periods 0 .. period-1 are due: wait until they are charged. Up to `slack` may lag
      // (a killed runner's, until its lease lapses: they catch up later, several periods
      // in one pass); then, or once the provider has had no request for a second, the
      // clock moves on.
      const target = run.subscriptions * period - slack;
      let last = -1;
      let seen = -1;
      let stalledSince = Date.now();
      for (;;) {
        const { successful, requests } = await counts();
        last = successful;
        if (successful >= target) break;
        if (requests !== seen) {
          seen = requests;
          stalledSince = Date.now();
        } else if (Date.now() - stalledSince > 1_000) break;
        await sleep(100);
      }
      if (period === run.loseAtPeriod) {
        await run.lose(); // the store deleted mid-run: the partner signs its members up again
        await signUp();
        log(`store lost and re-subscribed at period ${period}`);
      }
      now = await provider.call<number>('advance', { ms: DAY });
      await runners.tell(now);
      if (period % 10 === 0)
        log(
          `period ${period}: ${last} charged, ${runners.kills} kills, ${Date.now() - started} ms`,
        );
    }
    done = true;
    await killing;
    if (runners.kills === 0) await runners.killOne(() => now); // a short run: one kill at least
    // The clock is at the end: every subscription ends once its last period is charged.
    // A charge left PENDING (a wait that timed out) is looked at again recheckMs later:
    // the clock is nudged past it while nothing moves.
    let ended = 0;
    let progress = '';
    let movedAt = Date.now();
    for (let round = 0; Date.now() - movedAt < FINAL_WAIT_MS; round++) {
      const { successful, requests } = await counts();
      if (successful >= run.subscriptions * run.periods || round % 10 === 9) {
        ended = (await run.probe.list({ status: 'ENDED' })).length;
        if (ended === run.subscriptions && successful >= run.subscriptions * run.periods) break;
      }
      if (`${ended}/${requests}` !== progress) {
        progress = `${ended}/${requests}`;
        movedAt = Date.now();
      }
      if (round % 100 === 99) log(`waiting: ${ended} ended, ${successful} charged`);
      if (round % 20 === 19) {
        now = await provider.call<number>('advance', { ms: 60_000 });
        await runners.tell(now);
      }
      await sleep(100);
    }
    log(`ended ${ended} in ${Date.now() - started} ms`);
    return {
      durationMs: Date.now() - started,
      kills: runners.kills,
      charges: await provider.call<HeldCharge[]>('charges'),
      counts: await counts(),
      requests: await provider.call('requests'),
      stored: await run.probe.list({}),
      warnings: runners.warnings(),
    };
  } finally {
    done = true;
    await killing?.catch(() => {});
    await runners.close();
    await provider.close();
  }
}

async function inParallel(count: number, width: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}
