import type { OutboxPayment } from 'momo-partner-sdk';
import { expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { allDelivered, freshShop, markOrder, order, orderStatuses } from './outbox-support';
import { usePostgres } from './support';

const h = useSimulator();

describeWithPostgres('the outbox relay meeting a 409 (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it("compares the provider's transaction with the row: the same one SUCCESSFUL, another FAILED TRANSACTION_MISMATCH", async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    const same = await order(pool, db, 'o-same', PAYEE.ok);
    const other = await order(pool, db, 'o-other', PAYEE.ok);
    // Under each row's reference id the provider already holds a transfer: the row's own
    // (a relay that crashed after its send), and one for another amount.
    const momo = h.client();
    await momo.disbursement.transfer(row('o-same', PAYEE.ok).body as never, { referenceId: same });
    const body = { ...(row('o-other', PAYEE.ok).body as object), amount: '99.00' };
    await momo.disbursement.transfer(body as never, { referenceId: other });

    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(momo, { onSettled: markOrder(db.schema, seen) });
    await allDelivered(pool, db.schema);
    await relay.stop();

    expect(h.transferPosts().filter((id) => id === same || id === other)).toHaveLength(4); // 2 + 2 409s
    expect(h.sim.transactions).toHaveLength(2);
    expect(await db.outbox.get('o-same')).toMatchObject({ status: 'SUCCESSFUL' });
    expect(await db.outbox.get('o-other')).toMatchObject({
      status: 'FAILED',
      reason: 'TRANSACTION_MISMATCH',
    });
    expect(await orderStatuses(pool, db.schema)).toEqual({
      'o-other': 'FAILED',
      'o-same': 'SUCCESSFUL',
    });
    expect(seen.map((p) => p.key).sort()).toEqual(['o-other', 'o-same']);
  });
});
