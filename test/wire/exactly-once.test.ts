import { MomoClient } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

const body = {
  amount: '40',
  currency: 'EUR',
  externalId: 'once',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
} as const;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('exactly once', () => {
  it('a connection lost after the service processed a deposit leaves one transaction (real socket)', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const server = await sim.listen({ port: 0 });
    closers.push(() => server.close());
    const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
    const momo = new MomoClient({
      baseUrl: server.url,
      targetEnvironment,
      subscriptionKey,
      apiUser,
    });

    sim.inject({ match: 'POST /disbursement/v1_0/deposit', kind: 'drop-after-processing' });
    const accepted = await momo.disbursement.deposit(body);

    const attempts = sim.requests.filter((r) => r.path === '/disbursement/v1_0/deposit');
    expect(attempts.map((r) => r.headers['x-reference-id'])).toEqual([
      accepted.referenceId,
      accepted.referenceId,
    ]);
    expect(sim.transactions).toHaveLength(1);
    expect(sim.transactions[0]?.referenceId).toBe(accepted.referenceId);
    expect((await accepted.wait()).status).toBe('SUCCESSFUL');
  });

  it('a connection lost before processing is simply sent again, still under one id', async () => {
    const sim = createSimulator({ settleMs: 0 });
    sim.inject({
      match: 'POST /disbursement/v1_0/transfer',
      kind: 'drop-before-processing',
      times: 2,
    });
    const accepted = await sim.client().disbursement.transfer(body);
    const attempts = sim.requests.filter((r) => r.path === '/disbursement/v1_0/transfer');
    expect(new Set(attempts.map((r) => r.headers['x-reference-id']))).toEqual(
      new Set([accepted.referenceId]),
    );
    expect(sim.transactions).toHaveLength(1);
  });

  it('a 503 followed by success stores one transaction', async () => {
    const sim = createSimulator({ settleMs: 0 });
    sim.inject({ match: 'POST /disbursement/v1_0/deposit', kind: 'status', status: 503 });
    await sim.client().disbursement.deposit(body);
    expect(sim.transactions).toHaveLength(1);
  });
});
