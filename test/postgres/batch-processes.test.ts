import { createPostgresState } from 'momo-partner-sdk/postgres';
import { expect, it } from 'vitest';
import {
  expectWholeBatchTakenOver,
  oneBatchOneKilled,
  transferRows,
} from '../support/batch-processes';
import { describeWithPostgres } from '../support/postgres-server';
import { ProviderProcess } from '../support/provider-process';
import { usePostgres } from './support';

const SETTLE_MS = 150;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };
/** 500 payout rows, every payee one that accepts. */
const ITEMS = transferRows(500, () => '46733123999');

describeWithPostgres('one batch, four processes, one killed (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it(
    'each survivor ends with all 500 final within 15 s of the kill, every row created once',
    SLOW,
    async () => {
      // The provider in its own process; the store's default lease (15 s).
      const provider = await ProviderProcess.start({
        settleMs: SETTLE_MS,
        limits: { lookupsPerSecond: 200, createsPerSecond: 200 },
      });
      try {
        const { schema } = await pg15.freshState();
        const after = await oneBatchOneKilled({
          processes: 4,
          killAfter: 40,
          input: {
            simulator: provider.client,
            store: { kind: 'postgres', config: pg15.server().config, schema },
            batchId: 'payroll-2026-11',
            items: ITEMS,
          },
          // This process's view of the same tables, on a pool of its own.
          probe: createPostgresState(pg15.newPool(), { schema }).batchStore,
        });
        expect(after.survivors).toHaveLength(3);
        await expectWholeBatchTakenOver(
          after,
          provider,
          { total: 500, successful: 500 },
          SETTLE_MS,
        );
        expect(after.records.size).toBe(500);
      } finally {
        await provider.close();
      }
    },
  );
});
