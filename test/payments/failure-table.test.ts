/**
 * The kernel's one table of failure reactions (docs/architecture.md, "What each driver
 * does with each failure"): each kind produced by a real call through the real transport
 * against the simulator, sorted by `sendFailure`, and what the journal then holds; and a
 * batch's reaction to the credentials refused (the same reference id sent again).
 */
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalOutcome, sendFailure } from '../../src/payments/failure';

const DEPOSIT = 'POST /disbursement/v1_0/deposit';
const body = (amount = '10') => ({
  amount,
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
});

let sim: Simulator;
let server: ListeningServer;
beforeEach(async () => {
  sim = createSimulator({ settleMs: 10 });
  server = await sim.listen();
});
afterEach(() => server.close());

const client = (options: Partial<MomoClientOptions> = {}) =>
  new MomoClient({ ...sim.credentials, baseUrl: server.url, maxRetries: 0, ...options });

/** The failure of one deposit, its kind, and what the client's journal holds for it. */
async function failureOf(momo: MomoClient, call: Promise<unknown>) {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  const failure = sendFailure(error);
  const referenceId = (error as { referenceId?: string }).referenceId;
  const entry = referenceId === undefined ? undefined : await momo.journal.get(referenceId);
  return { error, failure, entry, journal: journalOutcome(failure) };
}

describe('each kind of failure, and what the journal does with it', () => {
  it('invalid: nothing sent, nothing recorded', async () => {
    const momo = client();
    const { failure, entry } = await failureOf(momo, momo.disbursement.deposit(body('ten')));
    expect(failure.kind).toBe('invalid');
    expect(entry).toBeUndefined();
    expect(await momo.journal.pending()).toEqual([]);
    expect(sim.transactions).toHaveLength(0);
  });

  it('refused: FAILED with its code', async () => {
    const momo = client();
    sim.inject({
      kind: 'status',
      status: 400,
      body: { code: 'PAYEE_NOT_ALLOWED', message: 'no' },
      match: DEPOSIT,
    });
    const { failure, entry } = await failureOf(momo, momo.disbursement.deposit(body()));
    expect(failure).toEqual({ kind: 'refused', code: 'PAYEE_NOT_ALLOWED' });
    expect(entry).toMatchObject({ outcome: 'FAILED', reason: 'PAYEE_NOT_ALLOWED' });
  });

  it('credentials: a 401 (and its replay) leaves the entry pending, never REJECTED', async () => {
    const momo = client();
    sim.inject({ kind: 'status', status: 401, match: DEPOSIT, times: 2 });
    const { failure, entry, journal } = await failureOf(momo, momo.disbursement.deposit(body()));
    expect(failure.kind).toBe('credentials');
    expect(journal).toBeUndefined();
    expect(entry).toBeDefined();
    expect(entry?.outcome).toBeUndefined();
  });

  it('rate-limited: a 429 after the retries leaves the entry pending', async () => {
    const momo = client();
    sim.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' }, match: DEPOSIT });
    const { failure, entry } = await failureOf(momo, momo.disbursement.deposit(body()));
    expect(failure.kind).toBe('rate-limited');
    expect(entry?.outcome).toBeUndefined();
  });

  it('not known yet: a lost answer, and a 403 after it, leave the entry pending', async () => {
    const momo = client();
    sim.inject({ kind: 'drop-after-processing', match: DEPOSIT });
    const lost = await failureOf(momo, momo.disbursement.deposit(body()));
    expect(lost.failure.kind).toBe('unknown');
    expect(lost.entry?.outcome).toBeUndefined();

    const retrying = client({ maxRetries: 1 });
    sim.inject({ kind: 'drop-after-processing', match: DEPOSIT });
    sim.inject({ kind: 'status', status: 403, match: DEPOSIT });
    const refusedAfter = await failureOf(retrying, retrying.disbursement.deposit(body()));
    expect(refusedAfter.failure.kind).toBe('unknown'); // the 403 says nothing of attempt 1
    expect(refusedAfter.entry?.outcome).toBeUndefined();
    expect(String(refusedAfter.error)).toMatch(/may have been accepted/);
  });

  it('landed: a 409 on a first send (an earlier send landed) leaves the entry pending', async () => {
    const first = await client().disbursement.deposit(body());
    const momo = client();
    const { failure, entry } = await failureOf(
      momo,
      momo.disbursement.deposit(body(), { referenceId: first.referenceId }),
    );
    expect(failure.kind).toBe('landed');
    expect(entry?.outcome).toBeUndefined();
  });

  it('never sent: queued past its deadline, the message says so and the journal NOT_FOUND', async () => {
    const momo = client({ createRate: 0.5 });
    await momo.disbursement.deposit(body()); // the share of the next 2 s is taken
    const { error, failure, entry } = await failureOf(
      momo,
      momo.disbursement.deposit(body(), { timeoutMs: 100 }),
    );
    expect(String(error)).toMatch(/free request slot.*Nothing was sent\.$/);
    expect(failure.kind).toBe('never-sent');
    expect(entry?.outcome).toBe('NOT_FOUND');
    expect(sim.transactions).toHaveLength(1);
  });
});

describe('a batch and the credentials refused', () => {
  it('stops the run, records nothing refused, and a re-run sends the same reference id', async () => {
    const store = memoryBatchStore();
    const items = [{ key: 'r1', body: body() }];
    sim.inject({
      kind: 'status',
      status: 401,
      match: 'POST /disbursement/v1_0/transfer',
      times: 2,
    });
    const momo = client({ polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 5_000 } });
    const run = () =>
      new Batches(momo).run(items, { id: 'b401', store, operation: 'disbursement.transfer' });
    await expect(run()).rejects.toMatchObject({ status: 401 });
    const report = await run();
    expect(report.items[0]?.status).toBe('SUCCESSFUL');
    const posts = sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transfer'));
    const ids = new Set(posts.map((r) => r.headers['x-reference-id']));
    expect(ids.size).toBe(1); // the same id, before and after
  });
});
