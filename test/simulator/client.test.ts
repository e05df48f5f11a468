import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const payee = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });

describe('simulator: sim.client()', () => {
  it('returns a MomoClient wired to the simulator that awaits outcomes', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const momo = sim.client();
    const ok = await momo.disbursement
      .deposit({ amount: '5', currency: 'EUR', externalId: 'c-1', payee: payee('46700000001') })
      .wait();
    expect(ok).toMatchObject({ status: 'SUCCESSFUL', amount: '5' });
    const failed = await momo.disbursement
      .transfer({ amount: '5', currency: 'EUR', externalId: 'c-2', payee: payee('46733123451') })
      .wait();
    expect(failed).toMatchObject({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } });
    expect(sim.transactions.map((tx) => tx.status)).toEqual(['SUCCESSFUL', 'FAILED']);
  });

  it('retries a dropped creating call with the same reference id: one transaction', async () => {
    const sim = createSimulator({ settleMs: 10 });
    sim.inject({ kind: 'drop-after-processing', match: 'POST /disbursement/v1_0/deposit' });
    const result = await sim
      .client()
      .disbursement.deposit({
        amount: '5',
        currency: 'EUR',
        externalId: 'c-3',
        payee: payee('46700000001'),
      })
      .wait();
    expect(result.status).toBe('SUCCESSFUL');
    expect(sim.transactions).toHaveLength(1);
    const creates = sim.requests.filter(
      (r) => r.method === 'POST' && r.path === '/disbursement/v1_0/deposit',
    );
    expect(creates).toHaveLength(2);
    expect(creates[0]?.headers['x-reference-id']).toBe(creates[1]?.headers['x-reference-id']);
  });
});
