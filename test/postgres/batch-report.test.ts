import { it } from 'vitest';
import { useSimulator } from '../batches/harness';
import { expectReportAsRun, expectUnknownBatch } from '../batches/report-support';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

// DESIGN 10.5 on PostgreSQL: the report a run returns, read back from the tables with no
// request to the provider.
const h = useSimulator();

describeWithPostgres('Batches.report on the PostgreSQL batch store (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it("is the run's report, read without a request; an unknown batch is a ValidationError", async () => {
    const { batchStore } = await pg15.freshState();
    await expectReportAsRun(h, batchStore, batchStore);
    await expectUnknownBatch(h, batchStore, 'no-such-batch');
  });
});
