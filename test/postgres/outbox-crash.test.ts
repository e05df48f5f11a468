import { fileURLToPath } from 'node:url';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import type { RecordedRequest } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { Instance, until } from '../redis/support/instances';
import { describeWithPostgres } from '../support/postgres-server';
import {
  createOrders,
  creates,
  expectEachSentOnce,
  externalId,
  idOf,
  type PlacedOrder,
  placeOrder,
  providerOptions,
  TRANSFER,
} from './outbox-crash-support';
import { allDelivered } from './outbox-support';
import { usePostgres } from './support';
import type { RelayInput } from './workers/relay';

// Issue 26 (b): 200 orders placed, each in its own transaction with its payment intent, a
// quarter rolled back; the relay runs in child processes that are killed with SIGKILL
// between sending a request to pay and recording it (the provider created it and holds
// its 202), and a new relay process carries on. Real PostgreSQL, real HTTP.
const RELAY = fileURLToPath(new URL('./workers/relay.ts', import.meta.url));
const LEASE_MS = 1_500;
const ORDERS = 200;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };

describeWithPostgres('the outbox relay killed between the send and the record', () => {
  const pg15 = usePostgres();
  const h = useSimulator(50);

  async function startRelay(schema: string): Promise<Instance> {
    const relay = await Instance.spawn(RELAY);
    const input: RelayInput = {
      provider: providerOptions(h),
      postgres: pg15.server().config,
      schema,
      leaseMs: LEASE_MS,
      concurrency: 16,
    };
    await relay.call('start', input);
    return relay;
  }

  /**
   * Holds the answer to the next request to pay at the provider (the `delay` fault: it
   * is created at once, its 202 held back), waits until the provider has created it,
   * then kills the relay process: it sent, it never learnt the answer (its row still
   * QUEUED, no other relay running yet).
   */
  async function killInTheCrashWindow(
    relay: Instance,
    db: PostgresState,
  ): Promise<RecordedRequest> {
    const armedAt = h.sim.requests.length;
    h.sim.inject({ kind: 'delay', match: `POST ${TRANSFER}`, ms: 120_000 });
    let held: RecordedRequest | undefined;
    await until(() => {
      held = creates(h.sim, armedAt)[0];
      return held !== undefined && h.sim.transaction(idOf(held)) !== undefined;
    }, 30_000);
    await relay.kill();
    const sent = held as RecordedRequest;
    expect(await db.outbox.get(keyOf(sent))).toMatchObject({
      referenceId: idOf(sent),
      status: 'QUEUED',
    });
    return sent;
  }

  it(
    'sends each committed intent exactly once under its reference id, never a rolled-back one',
    SLOW,
    async () => {
      const pool = pg15.pool();
      const db = await pg15.freshState();
      await createOrders(pool, db.schema);
      const relays: Instance[] = [];
      try {
        relays.push(await startRelay(db.schema));
        // Orders placed while the relay runs, four transactions at a time; every 4th rolled back.
        const placed: PlacedOrder[] = [];
        const placing = (async () => {
          for (let i = 0; i < ORDERS; i += 4) {
            const batch = [0, 1, 2, 3].map((j) =>
              placeOrder(pool, db, `order-${i + j}`, PAYEE.ok, j !== 3),
            );
            placed.push(...(await Promise.all(batch)));
          }
        })();

        await until(() => creates(h.sim).length >= 30, 60_000);
        const first = await killInTheCrashWindow(relays[0] as Instance, db);
        relays.push(await startRelay(db.schema));
        const from = h.sim.requests.length;
        await until(() => creates(h.sim, from).length >= 30, 60_000);
        const second = await killInTheCrashWindow(relays[1] as Instance, db);
        await placing;
        for (const held of [first, second]) {
          expect(placed.find((p) => p.key === keyOf(held))?.referenceId).toBe(idOf(held));
        }

        relays.push(await startRelay(db.schema));
        await allDelivered(pool, db.schema, 120_000);
        expect(placed.filter((p) => p.committed)).toHaveLength(ORDERS * 0.75);
        const sends = await expectEachSentOnce(h.sim, pool, db, placed);
        // Each held one was sent again after its relay died, under the same id (409).
        expect(sends.get(keyOf(first))).toBeGreaterThanOrEqual(2);
        expect(sends.get(keyOf(second))).toBeGreaterThanOrEqual(2);
        await (relays[2] as Instance).close();
      } finally {
        await Promise.all(relays.map((relay) => relay.kill()));
      }
    },
  );
});

const keyOf = (r: RecordedRequest) => externalId(r) ?? '';
