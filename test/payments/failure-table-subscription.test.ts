/**
 * The subscription column of the kernel's table of failure reactions
 * (docs/architecture.md, "What each driver does with each failure"): each kind produced
 * by a real call through the client's transport against the simulator, and what a pass
 * of `new Subscriptions(momo, ...)` does with a charge that met it.
 */
import type { MomoClientOptions } from 'momo-partner-sdk';
import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator, type Fault } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, SECRET, T0 } from '../subscriptions/support';

const REQUEST_TO_PAY = 'POST /collection/v1_0/requesttopay';
const RECHECK = 60_000;

/** A simulator on a clock at T0, a client with no retries of its own, and subscriptions on both. */
function world(options: Partial<MomoClientOptions> = {}) {
  const sim = createSimulator({
    settleMs: 0,
    clock: { now: () => T0 },
    tokenTtlSeconds: 20 * 365 * 86_400,
  });
  const store = memorySubscriptionStore();
  const on = (overrides: Partial<MomoClientOptions>) =>
    new Subscriptions(sim.client({ maxRetries: 0, ...overrides }), {
      store,
      secret: SECRET,
      now: () => sim.clock.now(),
      waitMs: 5_000,
      recheckMs: RECHECK,
    });
  const subs = on({});
  /** The X-Reference-Ids of the requests to pay the simulator was asked to create. */
  const posts = () =>
    sim.requests
      .filter((r) => `${r.method} ${r.path}` === REQUEST_TO_PAY)
      .map((r) => r.headers['x-reference-id']);
  return { sim, store, subs, faulty: on(options), posts };
}

/** Subscribes `keys` at T0 (period 0 due a day later); the clock moved to it, mandates approved. */
async function due(w: ReturnType<typeof world>, ...keys: string[]) {
  await w.subs.plan(gymMonthly);
  for (const [i, key] of keys.entries()) {
    await w.subs.subscribe({
      key,
      plan: 'gym-monthly',
      payer: payer(`23324455510${i}`),
      startAt: T0 + DAY,
    });
  }
  w.sim.clock.advance(DAY);
}

const charges = async (w: ReturnType<typeof world>, key: string) =>
  (await w.subs.get(key))?.charges ?? [];

/** A pass meeting `faults` on its request to pay, then a clean pass RECHECK later. */
async function faultThenRecheck(w: ReturnType<typeof world>, ...faults: Fault[]) {
  await due(w, 'member-1');
  for (const fault of faults) w.sim.inject(fault);
  const first = await w.faulty.runDue();
  const after = (await charges(w, 'member-1')).map((c) => ({ ...c }));
  w.sim.clock.advance(RECHECK);
  await w.subs.runDue();
  return { errors: first.errors, after, settled: await charges(w, 'member-1') };
}

describe('a subscription pass and each kind of failure of a charge', () => {
  it('invalid: a stored payer the client refuses is a charge FAILED INVALID_INPUT, nothing sent', async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    const sub = { key: 'member-1', plan: 'gym-monthly', payer: payer('233244555100') };
    await w.subs.subscribe({ ...sub, startAt: T0 + 2 * DAY });
    w.sim.clock.advance(DAY);
    await w.subs.runDue(); // the mandate approved; nothing due yet
    expect((await w.subs.get('member-1'))?.status).toBe('ACTIVE');
    // As a record written by another release would be: the client's check refuses it.
    const stored = await w.store.get('member-1');
    if (!stored) throw new Error('no subscription stored');
    const payee = { partyIdType: 'MSISDN' as const, partyId: 'not-a-number' };
    await w.store.put({ ...stored.subscription, payer: payee }, stored.version);
    w.sim.clock.advance(DAY);
    const report = await w.faulty.runDue();
    expect(report.errors).toEqual([]);
    expect(await charges(w, 'member-1')).toMatchObject([
      { status: 'FAILED', reason: 'INVALID_INPUT' },
    ]);
    expect(w.posts()).toEqual([]);
  });

  it('refused: the charge FAILED with its code', async () => {
    const w = world();
    const { after } = await faultThenRecheck(w, {
      kind: 'status',
      status: 400,
      body: { code: 'PAYER_NOT_ALLOWED', message: 'no' },
      match: REQUEST_TO_PAY,
    });
    expect(after).toMatchObject([{ status: 'FAILED', reason: 'PAYER_NOT_ALLOWED' }]);
    expect(w.posts()).toHaveLength(1);
  });

  it('credentials: the pass reports it, the charge stays PENDING, the next pass sends the same id', async () => {
    const w = world();
    const { errors, after, settled } = await faultThenRecheck(w, {
      kind: 'status',
      status: 401,
      match: REQUEST_TO_PAY,
      times: 2,
    });
    expect(errors).toEqual([
      { key: 'member-1', error: expect.stringMatching(/^AuthenticationError/) },
    ]);
    expect(after).toMatchObject([{ status: 'PENDING' }]);
    expect(settled).toMatchObject([{ status: 'SUCCESSFUL' }]);
    expect(new Set(w.posts())).toEqual(new Set([settled[0]?.referenceId]));
    expect(
      w.sim.transactions.filter((t) => t.operation === 'collection.requestToPay'),
    ).toHaveLength(1);
  });

  it('rate-limited: the charge PENDING; looked up (NOT_SENT), then sent again under the same id', async () => {
    const w = world();
    const { errors, after } = await faultThenRecheck(w, {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '0' },
      match: REQUEST_TO_PAY,
    });
    expect(errors).toEqual([]);
    // The same pass follows the PENDING charge: looked up, not held, sent again.
    expect(after).toMatchObject([{ status: 'SUCCESSFUL' }]);
    const ids = w.posts();
    expect(ids).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set([after[0]?.referenceId]));
  });

  it('not known yet: the charge PENDING; looked up, and not sent again when the provider holds it', async () => {
    const w = world();
    const { errors, after } = await faultThenRecheck(w, {
      kind: 'drop-after-processing',
      match: REQUEST_TO_PAY,
    });
    expect(errors).toEqual([]);
    // The same pass follows the PENDING charge: looked up, held by the provider, awaited.
    expect(after).toMatchObject([{ status: 'SUCCESSFUL' }]);
    expect(w.posts()).toHaveLength(1);
  });

  it('not known yet, then a 401: the charge PENDING, never FAILED; settled by a lookup, paid once', async () => {
    const w = world({ maxRetries: 1 });
    const { errors, after, settled } = await faultThenRecheck(
      w,
      { kind: 'drop-after-processing', match: REQUEST_TO_PAY },
      { kind: 'status', status: 401, match: REQUEST_TO_PAY, times: 2 },
    );
    // The 401 concerns the client: reported as for credentials, the charge left as it was.
    expect(errors).toEqual([
      { key: 'member-1', error: expect.stringMatching(/^AuthenticationError/) },
    ]);
    expect(after).toMatchObject([{ status: 'PENDING' }]);
    expect(settled).toMatchObject([{ status: 'SUCCESSFUL' }]);
    expect(
      w.sim.transactions.filter((t) => t.operation === 'collection.requestToPay'),
    ).toHaveLength(1);
  });

  it('never sent: the charge PENDING (looked up: NOT_SENT), sent again under the same id', async () => {
    const w = world({ createRate: 0.5, timeoutMs: 300 });
    await due(w, 'member-1', 'member-2');
    await w.faulty.runDue(); // one request to pay goes, the other is held past its deadline
    const held = [...(await charges(w, 'member-1')), ...(await charges(w, 'member-2'))];
    expect(held.map((c) => c.status).sort()).toEqual(['PENDING', 'SUCCESSFUL']);
    w.sim.clock.advance(RECHECK);
    await w.subs.runDue();
    const settled = [...(await charges(w, 'member-1')), ...(await charges(w, 'member-2'))];
    expect(settled.map((c) => c.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
    // Each charge's id POSTed once: the held attempt never left the client.
    expect(w.posts().sort()).toEqual(settled.map((c) => c.referenceId).sort());
  });
});
