/**
 * onCharge(charge, tx) on db.subscriptionStore: run in the transaction that records the
 * charge's outcome, so that the partner's own row and the outcome commit together, or
 * neither does (and the next pass records the outcome and runs onCharge again).
 */
import type { SubscriptionChargeEvent } from 'momo-partner-sdk/subscriptions';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { gymMonthly, payer, requestsToPay, setup, T0 } from '../subscriptions/support';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

describeWithPostgres('subscriptions onCharge in the PostgreSQL store transaction', () => {
  const pg15 = usePostgres();

  /** A migrated state, the gym's own table beside it, and a member subscribed at T0. */
  async function gym() {
    const db = await pg15.freshState();
    const members = `"${db.schema}".members`;
    await pg15
      .pool()
      .query(`CREATE TABLE ${members} (key text PRIMARY KEY, paid_period int, status text)`);
    const world = setup({ store: db.subscriptionStore });
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'member-42',
      plan: 'gym-monthly',
      payer: payer('233244555700'),
      startAt: T0,
    });
    const record = (charge: SubscriptionChargeEvent, tx: unknown) =>
      (tx as pg.PoolClient).query(
        `INSERT INTO ${members} (key, paid_period, status) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET paid_period = EXCLUDED.paid_period, status = EXCLUDED.status`,
        [charge.key, charge.period, charge.status],
      );
    const rows = async () =>
      (await pg15.pool().query(`SELECT key, paid_period, status FROM ${members}`)).rows;
    /** The stored subscription's charges, read outside any transaction. */
    const stored = async () => (await db.subscriptionStore.get('member-42'))?.subscription;
    return { db, world, record, rows, stored };
  }

  it("commits the gym's row with the outcome; onCharge sees the final status in its tx", async () => {
    const { db, world, record, rows, stored } = await gym();
    const seen: unknown[] = [];
    const report = await world.subs.runDue({
      onCharge: async (charge, tx) => {
        const client = tx as pg.PoolClient;
        expect(typeof client?.query).toBe('function');
        // In the transaction: the outcome is written; outside it, not yet committed.
        const inside = await client.query(
          `SELECT subscription FROM "${db.schema}".subscriptions WHERE key = $1`,
          [charge.key],
        );
        const outside = await stored();
        seen.push({
          charge: [charge.period, charge.attempt, charge.status, charge.subscriptionStatus],
          inside: inside.rows[0]?.subscription.charges.at(-1),
          outside: outside?.charges.at(-1)?.status,
        });
        await record(charge, tx);
      },
    });
    expect(report.errors).toEqual([]);
    expect(report.counts.successful).toBe(1);
    const after = await stored();
    expect(seen).toEqual([
      {
        charge: [0, 1, 'SUCCESSFUL', 'ACTIVE'],
        inside: after?.charges[0], // final, written without any mark
        outside: 'PENDING',
      },
    ]);
    expect(after?.charges[0]).toMatchObject({ status: 'SUCCESSFUL' });
    expect(after?.charges[0]).not.toHaveProperty('delivered');
    expect(after?.charges[0]).not.toHaveProperty('notified');
    expect(await rows()).toEqual([{ key: 'member-42', paid_period: 0, status: 'SUCCESSFUL' }]);
  });

  it('a throw rolls back its row and the outcome; the next pass runs it again, nothing re-sent', async () => {
    const { world, record, rows, stored } = await gym();
    const calls: SubscriptionChargeEvent[] = [];
    const onCharge = async (charge: SubscriptionChargeEvent, tx: unknown) => {
      calls.push(charge);
      await record(charge, tx);
      if (calls.length === 1) throw new Error('the ledger is locked');
    };
    const first = await world.subs.runDue({ onCharge });
    expect(first.errors).toEqual([{ key: 'member-42', error: 'onCharge: the ledger is locked' }]);
    expect(first.charges).toEqual([]); // nothing recorded
    expect(await rows()).toEqual([]); // rolled back with the outcome
    const held = await stored();
    expect(held).toMatchObject({ period: 0, charges: [{ attempt: 1, status: 'PENDING' }] });
    expect(held?.lease).toBeUndefined(); // let go: the next pass need not wait

    const second = await world.subs.runDue({ onCharge }); // the same time: still due
    expect(second.errors).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]); // the same charge, the same outcome
    expect(calls[1]).toMatchObject({ period: 0, attempt: 1, status: 'SUCCESSFUL' });
    expect(await rows()).toEqual([{ key: 'member-42', paid_period: 0, status: 'SUCCESSFUL' }]);
    expect(await stored()).toMatchObject({ period: 1, charges: [{ status: 'SUCCESSFUL' }] });
    // Looked up, never sent again: one request to pay for the period.
    expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 1, successful: 1 });
    expect(await world.subs.runDue({ onCharge })).toMatchObject({ processed: 0, charges: [] });
    expect(calls).toHaveLength(2);
  });

  it('a transaction onCharge left failed (a caught statement error) commits nothing, and runs again', async () => {
    const { world, record, rows, stored } = await gym();
    let calls = 0;
    const onCharge = async (charge: SubscriptionChargeEvent, tx: unknown) => {
      calls += 1;
      await record(charge, tx);
      // A statement of the partner's own fails and is caught: PostgreSQL keeps the
      // transaction failed, and its COMMIT is a ROLLBACK.
      if (calls === 1)
        await (tx as pg.PoolClient).query('SELECT * FROM no_such_table').catch(() => {});
    };
    const first = await world.subs.runDue({ onCharge });
    expect(first.errors).toEqual([
      {
        key: 'member-42',
        error: 'onCharge: onCharge left its transaction failed: rolled back, nothing recorded',
      },
    ]);
    expect(await rows()).toEqual([]);
    expect((await stored())?.charges[0]?.status).toBe('PENDING');
    expect((await world.subs.runDue({ onCharge })).errors).toEqual([]);
    expect(calls).toBe(2);
    expect(await rows()).toEqual([{ key: 'member-42', paid_period: 0, status: 'SUCCESSFUL' }]);
    expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 1, successful: 1 });
  });
});
