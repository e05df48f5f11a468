/**
 * The batch column of the kernel's table of failure reactions (docs/architecture.md,
 * "What each driver does with each failure"): each kind produced by a real call through
 * the real transport against the simulator, and what `new Batches(momo)` does with it.
 * The credentials case is in failure-table.test.ts.
 */
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { Batches, type BatchItem, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const TRANSFER = 'POST /disbursement/v1_0/transfer';
const SECRET = 'failure-table-secret-0123456789abcdef';
const item = (key: string, amount = '10'): BatchItem => ({
  key,
  body: {
    amount,
    currency: 'EUR',
    externalId: key,
    payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
  },
});

let sim: Simulator;
let server: ListeningServer;
beforeEach(async () => {
  sim = createSimulator({ settleMs: 10 });
  server = await sim.listen();
});
afterEach(() => server.close());

const client = (options: Partial<MomoClientOptions> = {}) =>
  new MomoClient({
    ...sim.credentials,
    baseUrl: server.url,
    maxRetries: 0,
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 5_000 },
    ...options,
  });

/** The X-Reference-Ids of the transfers the simulator was asked to create, in order. */
const posts = () =>
  sim.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/transfer'))
    .map((r) => r.headers['x-reference-id']);

const runOf =
  (momo: MomoClient, items: BatchItem[], store = memoryBatchStore(), id = 'b1') =>
  () =>
    new Batches(momo).run(items, {
      id,
      store,
      secret: SECRET,
      operation: 'disbursement.transfer',
    });

describe('a batch and each kind of failure', () => {
  it('invalid: REJECTED with the field and why, nothing sent; a re-run rejects it again', async () => {
    const run = runOf(client(), [item('r1', 'ten')]);
    const first = await run();
    expect(first.items[0]).toMatchObject({ status: 'REJECTED' });
    expect(first.items[0]?.reason).toMatch(/amount/);
    const again = await run();
    expect(again.items[0]?.status).toBe('REJECTED');
    expect(posts()).toEqual([]);
  });

  it('refused: FAILED with its code, recorded; a re-run does not send it again', async () => {
    sim.inject({
      kind: 'status',
      status: 400,
      body: { code: 'PAYEE_NOT_ALLOWED', message: 'no' },
      match: TRANSFER,
    });
    const run = runOf(client(), [item('r1')]);
    const first = await run();
    expect(first.items[0]).toMatchObject({ status: 'FAILED', reason: 'PAYEE_NOT_ALLOWED' });
    const again = await run();
    expect(again.items[0]).toMatchObject({ status: 'FAILED', reason: 'PAYEE_NOT_ALLOWED' });
    expect(posts()).toHaveLength(1);
  });

  it('rate-limited: sent again at once under the same reference id, and paid', async () => {
    sim.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' }, match: TRANSFER });
    const report = await runOf(client(), [item('r1')])();
    expect(report.items[0]?.status).toBe('SUCCESSFUL');
    const ids = posts();
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('not known yet: UNRESOLVED; a re-run sends the same id, whose 409 proves it landed', async () => {
    sim.inject({ kind: 'drop-after-processing', match: TRANSFER });
    const run = runOf(client(), [item('r1')]);
    const first = await run();
    expect(first.items[0]?.status).toBe('UNRESOLVED');
    const again = await run();
    expect(again.items[0]?.status).toBe('SUCCESSFUL');
    const ids = posts();
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    expect(sim.transactions).toHaveLength(1);
  });

  it('not known yet, then a 401: the run stops, nothing recorded refused; a re-run settles the same id', async () => {
    sim.inject({ kind: 'drop-after-processing', match: TRANSFER });
    sim.inject({ kind: 'status', status: 401, match: TRANSFER, times: 2 });
    const run = runOf(client({ maxRetries: 1 }), [item('r1')]);
    await expect(run()).rejects.toMatchObject({ status: 401 });
    const again = await run();
    expect(again.items[0]?.status).toBe('SUCCESSFUL');
    expect(new Set(posts()).size).toBe(1);
    expect(sim.transactions).toHaveLength(1);
  });

  it('landed: the provider transaction is compared with the item, then awaited (or REJECTED when it differs)', async () => {
    const momo = client();
    await runOf(momo, [item('r1'), item('r2')])(); // a run whose store is then lost
    const report = await runOf(momo, [item('r1'), item('r2', '11')], memoryBatchStore())();
    expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'REJECTED']);
    expect(sim.transactions).toHaveLength(2); // nothing created twice
    expect(new Set(posts()).size).toBe(2);
  });

  it('never sent: queued past its deadline, sent again at once under the same id, never UNRESOLVED', async () => {
    const momo = client({ createRate: 0.5, timeoutMs: 300 });
    const report = await runOf(momo, [item('r1'), item('r2')])();
    expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
    const ids = posts();
    expect(ids).toHaveLength(2); // each sent once: the queued attempts never left the client
    expect(new Set(ids).size).toBe(2);
  });
});
