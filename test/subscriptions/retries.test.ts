import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, requestsToPay, runDays, setup, T0 } from './support';

const HOUR = 3_600_000;
const RECHECK = 60_000;
const reason = (code: string) => ({ code, message: code });

/**
 * Charges settle an hour of the simulator's time after they are sent (`settleMs`), and a
 * pass does not wait for them (`waitMs: 0`): the test decides each outcome with
 * `sim.settle` while it is pending, as the payer's wallet would.
 */
function slowWorld() {
  return setup({ settleMs: HOUR, waitMs: 0 });
}

async function lastCharge(world: ReturnType<typeof setup>, key: string) {
  const sub = await world.subs.get(key);
  const charge = sub?.charges.at(-1);
  if (!sub || !charge) throw new Error(`no charge of ${key}`);
  return { sub, charge };
}

/** Subscribes at T0 (period 0 due a day later) and lets the mandate be approved. */
async function subscribed(world: ReturnType<typeof setup>, key: string, partyId: string) {
  await world.subs.subscribe({
    key,
    plan: 'gym-monthly',
    payer: payer(partyId),
    startAt: T0 + DAY,
  });
  world.sim.clock.advance(DAY); // the payer approved the mandate meanwhile (settleMs)
  await world.subs.runDue(); // the mandate looked up; period 0's first charge sent
}

/** Fails the pending charge with `code`, then a pass that sees it. */
async function failPending(world: ReturnType<typeof setup>, key: string, code: string) {
  const { charge } = await lastCharge(world, key);
  expect(charge.status).toBe('PENDING');
  world.sim.settle(charge.referenceId, 'FAILED', reason(code));
  world.sim.clock.advance(RECHECK);
  return world.subs.runDue();
}

describe('subscriptions: retries by the provider reason', () => {
  it('a payer with no funds for two attempts is collected on the third', async () => {
    const world = slowWorld();
    await world.subs.plan(gymMonthly); // retry: ['1d', '3d']
    await subscribed(world, 'member-42', '233244555100');
    expect((await world.subs.get('member-42'))?.status).toBe('ACTIVE');

    const first = await failPending(world, 'member-42', 'NOT_ENOUGH_FUNDS');
    expect(first.counts.failed).toBe(1);
    let { sub } = await lastCharge(world, 'member-42');
    expect(sub.status).toBe('PAST_DUE');
    expect(sub.nextChargeAt).toBe(world.sim.clock.now() + DAY);

    world.sim.clock.advance(DAY);
    await world.subs.runDue(); // attempt 2
    await failPending(world, 'member-42', 'NOT_ENOUGH_FUNDS');
    ({ sub } = await lastCharge(world, 'member-42'));
    expect(sub.nextChargeAt).toBe(world.sim.clock.now() + 3 * DAY);

    world.sim.clock.advance(3 * DAY);
    await world.subs.runDue(); // attempt 3: the payer topped up
    world.sim.clock.advance(HOUR); // it settles
    const paid = await world.subs.runDue();
    expect(paid.counts.successful).toBe(1);
    ({ sub } = await lastCharge(world, 'member-42'));
    expect(sub.status).toBe('ACTIVE');
    expect(sub.period).toBe(1);
    expect(sub.charges.map((c) => [c.attempt, c.status, c.reason])).toEqual([
      [1, 'FAILED', 'NOT_ENOUGH_FUNDS'],
      [2, 'FAILED', 'NOT_ENOUGH_FUNDS'],
      [3, 'SUCCESSFUL', undefined],
    ]);
    expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 3, successful: 1 });
  });

  it('a payer not found stops the subscription at once: no retry, ever', async () => {
    const world = slowWorld();
    await world.subs.plan(gymMonthly);
    await subscribed(world, 'member-7', '233244555101');
    await failPending(world, 'member-7', 'PAYER_NOT_FOUND');
    const sub = await world.subs.get('member-7');
    expect(sub).toMatchObject({ status: 'CANCELLED', reason: 'PAYER_NOT_FOUND' });
    expect(sub?.mandate.status).toBe('CANCELLED'); // its mandate cancelled at the provider
    expect(sub?.dueAt).toBeUndefined();
    await runDays(world, 40);
    expect(requestsToPay(world.sim).get('member-7/0')).toEqual({ created: 1, successful: 0 });
    expect(requestsToPay(world.sim).get('member-7/1')).toBeUndefined();
  });

  it('an unknown payer (magic 123456) refuses the mandate: CANCELLED, no charge sent', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'ghost',
      plan: 'gym-monthly',
      payer: payer('233244123456'),
      startAt: T0,
    });
    await world.subs.runDue();
    expect(await world.subs.get('ghost')).toMatchObject({
      status: 'CANCELLED',
      reason: 'PAYER_NOT_FOUND',
      mandate: { status: 'DECLINED' },
    });
    expect(requestsToPay(world.sim).size).toBe(0);
  });

  it('retries spent with invoiceFallback leave an invoice that, paid, ends the period', async () => {
    const world = slowWorld();
    await world.subs.plan({ ...gymMonthly, retry: ['1d'], invoiceFallback: true });
    await subscribed(world, 'member-9', '233244555102');
    await failPending(world, 'member-9', 'NOT_ENOUGH_FUNDS');
    world.sim.clock.advance(DAY);
    await world.subs.runDue(); // attempt 2, the last
    await failPending(world, 'member-9', 'PAYER_LIMIT_REACHED');

    let { sub, charge } = await lastCharge(world, 'member-9');
    expect(sub.status).toBe('PAST_DUE');
    expect(charge).toMatchObject({ attempt: 2, status: 'FAILED', invoice: { status: 'PENDING' } });
    const invoiceId = charge.invoice?.referenceId as string;
    const invoice = world.sim.transaction(invoiceId);
    expect(invoice).toMatchObject({ operation: 'collection.createInvoice', amount: '50' });

    world.sim.decide(invoiceId, 'approve'); // the payer pays the invoice
    world.sim.clock.advance(RECHECK);
    const report = await world.subs.runDue();
    expect(report.counts.successful).toBe(1);
    ({ sub, charge } = await lastCharge(world, 'member-9'));
    expect(sub).toMatchObject({ status: 'ACTIVE', period: 1 });
    expect(charge.invoice?.status).toBe('SUCCESSFUL');
    expect(requestsToPay(world.sim).get('member-9/0')).toEqual({ created: 2, successful: 0 });
  });

  it('a 500 business refusal of the send counts as the attempt failing: retried, then invoiced', async () => {
    const world = setup();
    await world.subs.plan({ ...gymMonthly, retry: ['1d'], invoiceFallback: true });
    const empty = { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' };
    world.sim.inject({
      kind: 'status',
      status: 500,
      body: empty,
      match: 'POST /collection/v1_0/requesttopay',
      times: 2,
    });
    await world.subs.subscribe({
      key: 'member-11',
      plan: 'gym-monthly',
      payer: payer('233244555104'),
      startAt: T0,
    });
    await world.subs.runDue();
    expect(await world.subs.get('member-11')).toMatchObject({
      status: 'PAST_DUE',
      nextChargeAt: T0 + DAY,
      charges: [{ attempt: 1, status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' }],
    });
    await runDays(world, 1);
    const { charge } = await lastCharge(world, 'member-11');
    expect(charge).toMatchObject({
      attempt: 2,
      status: 'FAILED',
      invoice: { status: 'SUCCESSFUL' },
    });
    expect(await world.subs.get('member-11')).toMatchObject({ status: 'ACTIVE', period: 1 });
    expect(requestsToPay(world.sim).get('member-11/0')).toBeUndefined(); // both refused: none created
  });

  it('retries spent without invoiceFallback cancel the subscription', async () => {
    const world = slowWorld();
    await world.subs.plan({ ...gymMonthly, retry: [] });
    await subscribed(world, 'member-10', '233244555103');
    await failPending(world, 'member-10', 'NOT_ENOUGH_FUNDS');
    expect(await world.subs.get('member-10')).toMatchObject({
      status: 'CANCELLED',
      reason: 'schedule spent: NOT_ENOUGH_FUNDS',
    });
  });
});

describe('subscriptions: a send whose answer is lost', () => {
  it('is sent again under its id: the 409 is compared and counted, never a second charge', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'lossy',
      plan: 'gym-monthly',
      payer: payer('233244555105'),
      startAt: T0,
    });
    // Processed, then the connection drops: the client does not know it landed.
    world.sim.inject({
      kind: 'drop-after-processing',
      match: 'POST /collection/v1_0/requesttopay',
      times: 3,
    });
    await world.subs.runDue();
    await runDays(world, 1);
    expect(await world.subs.get('lossy')).toMatchObject({ status: 'ACTIVE', period: 1 });
    const sends = world.sim.requests.filter(
      (r) => r.method === 'POST' && r.path === '/collection/v1_0/requesttopay',
    );
    expect(sends.length).toBeGreaterThan(1); // sent again after the drop
    expect(requestsToPay(world.sim).get('lossy/0')).toEqual({ created: 1, successful: 1 });
  });
});
