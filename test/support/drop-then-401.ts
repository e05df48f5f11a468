import {
  isAuthenticationError,
  type Journal,
  MomoClient,
  type MomoClientOptions,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';

const DEPOSIT = 'POST /disbursement/v1_0/deposit';

/**
 * DESIGN 10.1: the first attempt reaches the provider (processed) and the connection
 * drops; the retry and its token-refresh replay are answered 401. The caller's error
 * says an earlier attempt may have been accepted, the journal keeps the id pending
 * (`pending()` lists it), and a lookup (`resume()`) settles it SUCCESSFUL. `journal`:
 * undefined for the client's own (in memory).
 */
export async function dropThen401(journal?: Journal): Promise<void> {
  const sim = createSimulator({ settleMs: 10 });
  const server = await sim.listen();
  try {
    const options: MomoClientOptions = {
      ...sim.credentials,
      baseUrl: server.url,
      timeoutMs: 2_000,
      ...(journal ? { journal } : {}),
    };
    const momo = new MomoClient(options);
    await momo.disbursement.getBalance(); // the token is cached: the replay's is a second one
    sim.inject({ kind: 'drop-after-processing', match: DEPOSIT });
    sim.inject({ kind: 'status', status: 401, match: DEPOSIT, times: 2 });
    const body = {
      amount: '10',
      currency: 'EUR',
      externalId: 'order-401',
      payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
    };
    const error = await momo.disbursement.deposit(body).then(
      () => expect.fail('the 401 should reach the caller'),
      (e: unknown) => e,
    );
    expect(isAuthenticationError(error), String(error)).toBe(true);
    const referenceId = (error as { referenceId: string }).referenceId;
    expect(String(error)).toContain(`may have been accepted: look up referenceId ${referenceId}`);
    expect(String(error)).not.toMatch(/Nothing was sent/);
    expect(sim.transactions.map((tx) => tx.referenceId)).toEqual([referenceId]);
    const entry = await momo.journal.get(referenceId);
    expect(entry?.outcome).toBeUndefined(); // not REJECTED: not known yet
    expect((await momo.journal.pending()).map((e) => e.referenceId)).toContain(referenceId);
    const outcomes = await momo.journal.resume({ timeoutMs: 10_000 });
    expect(outcomes.find((o) => o.entry.referenceId === referenceId)?.status).toBe('SUCCESSFUL');
    expect((await momo.journal.get(referenceId))?.outcome).toBe('SUCCESSFUL');
  } finally {
    await server.close();
  }
}
