import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { expectExactlyOnce, oneBatchOneKilled, transferRows } from '../support/batch-processes';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

const LEASE_MS = 1_500;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };
/** 500 payout rows, every payee one that accepts. */
const ITEMS = transferRows(500, () => '46733123999');

describeWithPostgres('one batch, four processes, one killed (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it(
    'creates every row exactly once, under one reference id, each SUCCESSFUL in the store',
    SLOW,
    async () => {
      const sim = createSimulator({
        settleMs: 150,
        limits: { lookupsPerSecond: 200, createsPerSecond: 200 },
      });
      const http = await sim.listen({ port: 0 });
      try {
        const { schema } = await pg15.freshState();
        const { baseUrl: _, ...credentials } = sim.credentials;
        const { report, records } = await oneBatchOneKilled({
          processes: 4,
          killAfter: 40,
          input: {
            simulator: { ...credentials, baseUrl: http.url },
            store: { kind: 'postgres', config: pg15.server().config, schema },
            batchId: 'payroll-2026-11',
            leaseMs: LEASE_MS,
            items: ITEMS,
          },
          // This process's view of the same tables, on a pool of its own.
          probe: createPostgresState(pg15.newPool(), { schema }).batchStore,
        });
        // A survivor's final run reports all 500, each as the server created it.
        expect(report.summary).toMatchObject({ total: 500, successful: 500, unresolved: 0 });
        expectExactlyOnce(sim, report, 8);
        expect(records.size).toBe(500);
        for (const item of report.items) {
          const record = records.get(item.key);
          expect(record?.referenceId).toBe(item.referenceId);
          expect(record?.outcome?.status, item.key).toBe('SUCCESSFUL');
        }
      } finally {
        await http.close();
      }
    },
  );
});
