import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

// The simulator's own time: sim.clock.advance(ms) moves settlement, validity and expiry
// on at once, so that a month (or a year) runs in a test of milliseconds.
const DAY = 24 * 60 * 60 * 1000;
const payer = { partyIdType: 'MSISDN', partyId: '233244123999' } as const;

describe('sim.clock', () => {
  it('starts at the clock it is given and moves only forward by advance()', () => {
    let base = Date.parse('2026-01-01T00:00:00Z');
    const sim = createSimulator({ clock: { now: () => base } });
    expect(sim.clock.now()).toBe(base);
    sim.clock.advance(DAY);
    expect(sim.clock.now()).toBe(base + DAY);
    base += 5;
    expect(sim.clock.now()).toBe(base + DAY);
    expect(() => sim.clock.advance(-1)).toThrow(/ms must be a finite number >= 0/);
    expect(() => createSimulator({ clock: {} as never })).toThrow(/clock must be an object/);
  });

  it('settles what came due when it advances, and dates it on its own time', async () => {
    const sim = createSimulator({ settleMs: 60 * 60 * 1000 }); // an hour to settle
    const momo = sim.client();
    const start = sim.clock.now();
    const paid = await momo.collection.requestToPay({ amount: '50', currency: 'EUR', payer });
    expect(sim.transaction(paid.referenceId)?.status).toBe('PENDING');
    sim.clock.advance(60 * 60 * 1000);
    const tx = sim.transaction(paid.referenceId);
    expect(tx?.status).toBe('SUCCESSFUL');
    expect(tx?.finalizedAt).toBeGreaterThanOrEqual(start + 60 * 60 * 1000);
    expect((await momo.collection.getRequestToPay(paid.referenceId)).status).toBe('SUCCESSFUL');
  });

  it('expires a pre-approval on its time: approved for 30 days, gone after 31', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const momo = sim.client();
    const accepted = await momo.collection.preApproval({
      payer,
      payerCurrency: 'EUR',
      payerMessage: 'Gym',
      validityTime: 30 * 86_400,
    });
    expect((await accepted.wait()).status).toBe('SUCCESSFUL');
    const listed = () => momo.collection.getApprovedPreApprovals('msisdn', payer.partyId);
    expect(await listed()).toHaveLength(1);
    sim.clock.advance(29 * DAY);
    expect(await listed()).toHaveLength(1);
    sim.clock.advance(2 * DAY);
    expect(await listed()).toEqual([]);
    expect(sim.transaction(accepted.referenceId)?.preApproval?.state).toBe('EXPIRED');
  });

  it('keeps a client working across a year of advances (its token expires on that time)', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const momo = sim.client();
    for (let month = 0; month < 12; month++) {
      const result = await momo.collection
        .requestToPay({ amount: '50', currency: 'EUR', payer })
        .wait();
      expect(result.status).toBe('SUCCESSFUL');
      sim.clock.advance(30 * DAY);
    }
    expect(sim.transactions).toHaveLength(12);
  });
});
