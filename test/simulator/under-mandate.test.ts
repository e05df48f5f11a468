import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const DAY = 86_400_000;

describe('simulator: a request to pay under an active pre-approval', () => {
  it('settles without a prompt while the mandate is active, and is prompted again after it', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const momo = sim.client();
    // 123453: a payer who never answers a prompt.
    const payer = { partyIdType: 'MSISDN', partyId: '233244123453' } as const;
    const body = { amount: '50', currency: 'EUR', payer };

    const before = await momo.collection.requestToPay(body);
    expect((await before.status()).status).toBe('PENDING'); // prompted: no answer

    const mandate = await momo.collection.preApproval({
      payer,
      payerCurrency: 'EUR',
      validityTime: 30 * 86_400,
    });
    sim.decide(mandate.referenceId, 'approve');
    const under = await momo.collection.requestToPay(body);
    expect((await under.status()).status).toBe('SUCCESSFUL'); // no prompt

    sim.clock.advance(31 * DAY); // the mandate expired
    const after = await momo.collection.requestToPay(body);
    expect((await after.status()).status).toBe('PENDING');
  });

  it('prompts again once the partner cancelled the mandate', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const momo = sim.client();
    const payer = { partyIdType: 'MSISDN', partyId: '256772123454' } as const;
    const mandate = await momo.collection.preApproval({ payer, payerCurrency: 'EUR' });
    sim.decide(mandate.referenceId, 'approve');
    const [approved] = await momo.collection.getApprovedPreApprovals('msisdn', payer.partyId);
    await momo.collection.cancelPreApproval(approved?.preApprovalId as string);
    const charge = await momo.collection.requestToPay({ amount: '5', currency: 'EUR', payer });
    expect((await charge.status()).status).toBe('PENDING');
  });
});
