import { rm } from 'node:fs/promises';
import type { RecordedRequest } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { payroll } from './payouts-crash-rows';
import { externalId, TRANSFER, useCrashRuns } from './payouts-crash-support';

// `payouts` killed for real (SIGKILL of the child process) at several points of a 300-row
// batch, then run again until it ends, against ONE loopback simulator with the provider's
// caps on: every valid row created exactly once under one reference id, every status the
// server's, invalid rows REJECTED and never sent, the results complete and in input order.
const {
  sim,
  writeCsv,
  stateDir,
  command,
  creates,
  killWhen,
  runUntilDone,
  transactionsOf,
  pendingRowsAwaited,
  settlePending,
  storeFile,
  expectPaidExactlyOnce,
} = useCrashRuns();

describe('payouts killed with SIGKILL, then run again until it ends', { timeout: 90_000 }, () => {
  it('early, between the send and the record, and while waits are pending: each row paid once', async () => {
    const rows = payroll('crash');
    const cmd = command(await writeCsv(rows), 'crash-1');

    // (1) Early: once the first few creating calls reached the server.
    let from = sim.requests.length;
    await killWhen(cmd, rows, () => creates(from).length >= 5);

    // (2) In the crash window: the server has created the transfer, its 202 is held back
    // (the `delay` fault), and the process dies before it can record that it was sent.
    from = sim.requests.length;
    let armedAt = -1;
    let held: RecordedRequest | undefined;
    await killWhen(cmd, rows, () => {
      held = armedAt < 0 ? undefined : creates(armedAt)[0];
      // Armed once 20 transfers went; again if the one it held was refused by a cap.
      if ((armedAt < 0 && creates(from).length >= 20) || held?.limited) {
        sim.inject({ kind: 'delay', match: `POST ${TRANSFER}`, ms: 10_000 });
        armedAt = sim.requests.length; // the next transfer received takes the fault
        held = undefined;
      }
      const tx = held && sim.transaction(held.headers['x-reference-id'] ?? '');
      return tx !== undefined && tx.createdAt >= (held?.at ?? 0);
    });
    const heldKey = externalId(held as RecordedRequest) ?? '';
    const heldId = held?.headers['x-reference-id'];
    const store = await storeFile();
    expect(store.intents.get(heldKey)).toBe(heldId); // flushed before the send
    expect(store.outcomes.has(heldKey)).toBe(false); // its answer never came

    // (3) Mid-run, while waits are pending: the forever-pending rows sent and looked up.
    from = sim.requests.length;
    await killWhen(cmd, rows, () => pendingRowsAwaited(rows, from));
    settlePending(rows);

    expect(await runUntilDone(cmd)).toBe(1);
    const sends = await expectPaidExactlyOnce(rows);
    // The held transfer was sent again under its id after the crash: 409, looked up.
    expect(sends.get(heldKey)).toBe(2);
    expect(transactionsOf(heldKey)).toHaveLength(1);
  });

  it('the --state-dir folder deleted after a kill: the re-run sends under the same ids, pays nothing twice', async () => {
    const rows = payroll('lost');
    const cmd = command(await writeCsv(rows), 'lost-1');
    const from = sim.requests.length;
    await killWhen(cmd, rows, () => pendingRowsAwaited(rows, from));
    const createdBefore = rows.filter((r) => transactionsOf(r.values.key ?? '').length > 0);
    expect(createdBefore.length).toBeGreaterThan(100);
    await rm(stateDir(), { recursive: true });
    settlePending(rows);

    expect(await runUntilDone(cmd)).toBe(1);
    const sends = await expectPaidExactlyOnce(rows);
    // Every row created before the folder went was sent again under its derived id (409).
    for (const row of createdBefore) expect(sends.get(row.values.key ?? '')).toBe(2);
  });
});
