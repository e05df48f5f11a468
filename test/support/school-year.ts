/**
 * A school year as the school ran it (issue 39, DESIGN 10.3), in processes: the provider
 * (test/support/workers/school-provider.ts: the simulator and the payers' wallets) in a
 * process of its own, three runner processes on one shared store (`subs.start()`), one
 * SIGKILLed and started again on six days, and this process as the school's office: it
 * defines the fees, signs the pupils up, cancels, pauses, resumes and raises the fee by
 * `changePlan`, and moves the provider's clock a day at a time (the runners' `now` follows
 * it). The casting (which pupil does what) is `cast(pupils)`; the test reads the
 * provider's records and the store at the end.
 */
import { fileURLToPath } from 'node:url';
import { MomoClient, type SubscriptionStore } from 'momo-partner-sdk';
import { Subscriptions, type SubscriptionsReport } from 'momo-partner-sdk/subscriptions';
import { Instance } from '../redis/support/instances';
import type { HeldTransaction, Wallets } from './workers/school-provider';
import type { SharedSubscriptionStore } from './workers/subscription-runner';

export type { HeldTransaction } from './workers/school-provider';

const PROVIDER = fileURLToPath(new URL('./workers/school-provider.ts', import.meta.url));
const RUNNER = fileURLToPath(new URL('./workers/subscription-runner.ts', import.meta.url));

export const DAY = 86_400_000;
/** Period `m` of the year: the 5th of month m of 2026, 09:00 UTC (m = 12: the year's end). */
export const month = (m: number, day = 5) => Date.UTC(2026, m, day, 9);
export const T0 = month(0);
export const END = month(12);
export const FEE = '150000';
export const RAISED = '165000';
const SECRET = 'school-year-secret-kampala-2026';
const CURRENCY = 'UGX';

/** Who does what: indices of pupils (a size below 20 drops the roles it has no pupil for). */
export function cast(pupils: number) {
  const has = (i: number) => (i < pupils ? [i] : []);
  return {
    /** Leaves on 20 February (cancel); back under the same key from 5 May, after the lost store. */
    leaver: has(9),
    /** Never answers the first mandate during the year; approves it on 8 January 2027. */
    silent: has(11),
    /** Revokes the mandate from the phone on 15 May. */
    revoker: has(7),
    /** Declines the raised fee's mandate: stays at the old fee. */
    refuser: has(2),
    /** Paused on 20 June until 1 September (periods 6 and 7 skipped). */
    paused: has(5),
    /** Paused on 20 June with no end, resumed on 1 September. */
    resumed: has(15),
    /** Short of funds from 5 to 8 March (period 2: two refused attempts, the third paid). */
    short: Array.from({ length: pupils }, (_, i) => i).filter((i) => i % 10 === 3),
  };
}

export const keyOf = (i: number) => `pupil-${i}`;
export const msisdnOf = (i: number) => `25677${String(100_000 + i).padStart(7, '0')}`;

export interface SchoolRun {
  pupils: number;
  store: SharedSubscriptionStore;
  /** This process's view of the same store. */
  probe: SubscriptionStore;
  /** Deletes every plan and subscription of the store (the lost store, on 20 April). */
  lose: () => Promise<void>;
  log?: ((line: string) => void) | undefined;
}

export interface SchoolResult {
  /** The provider's requests to pay and pre-approvals, with their state at the end. */
  held: HeldTransaction[];
  deliveries: number;
  kills: number;
  /** Every subscription identity the office signed up, by key (the leaver has two). */
  identities: Map<string, string[]>;
  stored: Awaited<ReturnType<SubscriptionStore['list']>>;
  report: SubscriptionsReport;
  warnings: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The runners: spawned, told the time, one SIGKILLed and replaced. */
class Runners {
  readonly #live: Instance[] = [];
  readonly #all: Instance[] = [];
  kills = 0;
  constructor(readonly input: Record<string, unknown>) {}

  async spawn(now: number): Promise<void> {
    const runner = await Instance.spawn(RUNNER);
    this.#all.push(runner);
    await runner.call('start', { ...this.input, now });
    this.#live.push(runner);
  }

  async killOne(now: number): Promise<void> {
    const victim = this.#live.shift();
    if (!victim) return;
    await victim.kill();
    this.kills++;
    await this.spawn(now);
  }

  async tell(now: number): Promise<void> {
    await Promise.all(this.#live.map((r) => r.call('now', { now }).catch(() => {})));
  }

  warnings = () => this.#all.flatMap((r) => r.logs.map((l) => l.message));
  close = () => Promise.all(this.#all.map((r) => r.close().catch(() => {})));
}

/** The year, from 5 January 2026 to 12 January 2027; resolves with what is held at the end. */
export async function runSchoolYear(run: SchoolRun): Promise<SchoolResult> {
  const log = run.log ?? (() => {});
  const who = cast(run.pupils);
  const provider = await Instance.spawn(PROVIDER);
  const { url, credentials } = await provider.call<{
    url: string;
    credentials: Record<string, unknown>;
  }>('start', { startAt: T0, currency: CURRENCY });
  const wallets: Wallets = {
    silent: who.silent.map(msisdnOf),
    refuse: who.refuser.map((i) => ({ msisdn: msisdnOf(i), text: `${RAISED} ${CURRENCY}` })),
    short: { msisdns: who.short.map(msisdnOf), from: month(2), until: month(2, 8) },
  };
  await provider.call('wallets', wallets);
  let now = T0;
  const client = { ...credentials, baseUrl: url } as ConstructorParameters<typeof MomoClient>[0];
  const runners = new Runners({
    provider: client,
    store: run.store,
    secret: SECRET,
    concurrency: 8,
    waitMs: 5_000,
    recheckMs: 60_000,
    intervalMs: 40, // a pass soon after each move of the clock
    leaseMs: 4_000,
  });
  const identities = new Map<string, string[]>();
  const momo = new MomoClient({ ...client, polling: { initialDelayMs: 50, maxDelayMs: 200 } });
  const subs = new Subscriptions(momo, { store: run.probe, secret: SECRET, now: () => now });
  const fees = { amount: FEE, currency: CURRENCY, every: 'month' as const, retry: ['1d', '3d'] };
  const signUp = async (i: number, startAt = T0) => {
    const sub = await subs.subscribe({
      key: keyOf(i),
      plan: 'fees',
      payer: { partyIdType: 'MSISDN', partyId: msisdnOf(i) },
      startAt: new Date(startAt),
      endAt: new Date(END),
      mandateDays: 200, // expires in July: renewed for the rest of the year
    });
    const ids = identities.get(keyOf(i)) ?? [];
    if (sub.id && !ids.includes(sub.id)) identities.set(keyOf(i), [...ids, sub.id]);
  };
  const everyone = async (task: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < run.pupils; i++) await task(i);
  };
  const events: [number, string, () => Promise<unknown>][] = [
    [
      month(1, 20),
      'leaver cancels',
      () => Promise.all(who.leaver.map((i) => subs.cancel(keyOf(i)))),
    ],
    [
      month(3, 20),
      'store lost: everyone signed up again, the leaver back from 5 May',
      async () => {
        await run.lose();
        await subs.plan({ id: 'fees', ...fees });
        await everyone((i) => (who.leaver.includes(i) ? signUp(i, month(4)) : signUp(i)));
      },
    ],
    [
      month(4, 15),
      'revoked',
      () => Promise.all(who.revoker.map((i) => provider.call('revoke', { msisdn: msisdnOf(i) }))),
    ],
    [
      month(5, 20),
      'holidays: paused',
      async () => {
        for (const i of who.paused) await subs.pause(keyOf(i), { until: month(8, 1) });
        for (const i of who.resumed) await subs.pause(keyOf(i), { until: month(12, 20) });
      },
    ],
    [
      month(7, 15),
      'fee rise from 5 September',
      async () => {
        await subs.plan({ id: 'fees-term2', ...fees, amount: RAISED });
        await everyone((i) => subs.changePlan(keyOf(i), 'fees-term2', { from: month(8) }));
      },
    ],
    [month(8, 1), 'resumed', () => Promise.all(who.resumed.map((i) => subs.resume(keyOf(i))))],
    [
      END + 3 * DAY,
      'the silent payer approves',
      () =>
        Promise.all(
          who.silent.map((i) => provider.call('approvePending', { msisdn: msisdnOf(i) })),
        ),
    ],
  ];
  const killDays = new Set([month(1), month(3), month(5), month(7), month(9), month(11)]);
  try {
    await subs.plan({ id: 'fees', ...fees });
    await everyone((i) => signUp(i));
    await Promise.all([0, 1, 2].map(() => runners.spawn(now)));
    await quiet(run.probe, () => now, log);
    while (now < END + 7 * DAY) {
      now = await provider.call<number>('advance', { ms: DAY });
      await runners.tell(now);
      for (const event of events.filter(([at]) => at <= now)) {
        events.splice(events.indexOf(event), 1);
        log(`${new Date(now).toISOString().slice(0, 10)}: ${event[1]}`);
        await event[2]();
      }
      if (killDays.has(now)) {
        await sleep(20 + Math.random() * 80); // mid-pass: charges being sent
        await runners.killOne(now);
      }
      await quiet(run.probe, () => now, log);
    }
    const { transactions, deliveries } = await provider.call<{
      transactions: HeldTransaction[];
      deliveries: number;
    }>('held');
    return {
      held: transactions,
      deliveries,
      kills: runners.kills,
      identities,
      stored: await run.probe.list({}),
      report: await subs.report({ from: T0, to: END }),
      warnings: runners.warnings(),
    };
  } finally {
    await runners.close();
    await provider.close().catch(() => {});
  }
}

/** Waits until nothing is due by `now` (a killed runner's lease lapsing included), 60 s at most. */
async function quiet(store: SubscriptionStore, now: () => number, log: (line: string) => void) {
  const since = Date.now();
  while ((await store.due(now(), 1)).length > 0) {
    if (Date.now() - since > 60_000) {
      log(`${new Date(now()).toISOString()}: still due after 60 s; moving on`);
      return;
    }
    await sleep(15);
  }
}
