import { type BatchStore, isValidationError } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { batchStoreCases } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { itConforms } from '../support/conformance';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

/** The leases run on the database's clock: letting one run out means letting the time pass. */
const pass = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const intent = (key: string) => ({
  key,
  operation: 'disbursement.transfer',
  fingerprint: `print-${key}`,
  referenceId: '2f1d3b7e-8a4c-4f6e-9b1d-0c2e4a6f8b1d',
});

describeWithPostgres('the Postgres batch store (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  const schemaOf = new WeakMap<BatchStore, string>();

  describe('batch store conformance: createPostgresState(pool).batchStore', () => {
    const make = async () => {
      const { batchStore, schema } = await pg15.freshState();
      schemaOf.set(batchStore, schema);
      return batchStore;
    };
    const reopen = (store: BatchStore) => {
      const schema = schemaOf.get(store) as string;
      // Another process's: its own pool, the same tables.
      const { batchStore } = createPostgresState(pg15.newPool(), { schema });
      schemaOf.set(batchStore, schema);
      return batchStore;
    };
    itConforms(batchStoreCases(make, { reopen, pass }));
  });

  it('grants one claim when several processes claim the same items at once', async () => {
    const { schema } = await pg15.freshState();
    const owners = Array.from({ length: 4 }, (_, i) => ({
      owner: `process-${i}`,
      store: createPostgresState(pg15.newPool(), { schema }).batchStore,
    }));
    const keys = Array.from({ length: 50 }, (_, i) => `row-${i}`);
    const granted = await Promise.all(
      owners.map(async ({ owner, store }) => {
        const batch = await store.open('payroll');
        const mine: string[] = [];
        for (const key of keys) if (await batch.claim(key, owner, 60_000)) mine.push(key);
        return mine;
      }),
    );
    expect(granted.flat().sort()).toEqual([...keys].sort());
  });

  it('lists a batch larger than one page in the order first recorded', async () => {
    const batch = await (await pg15.freshState()).batchStore.open('big');
    const keys = Array.from({ length: 1_203 }, (_, i) => `row-${(i * 7919) % 1_203}`);
    for (const key of keys) {
      const token = (await batch.claim(key, 'run', 10_000)) as string;
      await batch.recordIntent(intent(key), token);
    }
    const listed: string[] = [];
    for await (const record of batch.records()) listed.push(record.key);
    expect(listed).toEqual(keys);
  });

  it('refuses a bad batch id, naming it', async () => {
    const { batchStore } = await pg15.freshState();
    await expect(batchStore.open('')).rejects.toSatisfy(isValidationError);
  });
});
