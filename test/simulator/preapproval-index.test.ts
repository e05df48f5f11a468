import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/testing/engine';
import { createFetch } from '../../src/testing/fetch';
import { party, rawClient, type Sim } from './helpers';

// A subscriptions run of a year against one simulator holds many thousand transactions;
// listing a payer's pre-approvals, or cancelling one, must read that payer's (or that id's)
// from the ledger's indexes, never walk every transaction. Counted, not timed: the
// ledger's `all()` (the walk) is watched (it still runs), and must not be called.
const CREATE = '/collection/v2_0/preapproval';
const APPROVES = '46733123999'; // a payer who approves at once (settleMs 0)

function engineSim() {
  const engine = createEngine({ settleMs: 0 });
  const sim = {
    fetch: createFetch(engine.handle, engine.credentials.baseUrl),
    credentials: engine.credentials,
  } as unknown as Sim;
  return { engine, http: rawClient(sim) };
}

describe('simulator: pre-approval listings and cancels are indexed', () => {
  it('lists a payer’s approved pre-approvals and cancels one by id without walking the ledger', async () => {
    const { engine, http } = engineSim();
    const token = await http.token('collection');
    // 200 other payers' pre-approvals and 200 requests to pay around the one we list.
    for (let i = 0; i < 200; i++) {
      const payer = `4673300${String(i).padStart(4, '0')}`;
      await http.create(CREATE, { payer: party(payer), payerMessage: 'x' }, { token });
      await http.create(
        '/collection/v1_0/requesttopay',
        { amount: '1', currency: 'EUR', externalId: 'x', payer: party(payer) },
        { token },
      );
    }
    const mine = [
      { payer: party(APPROVES), payerMessage: 'gym' },
      { payer: { partyIdType: 'EMAIL', partyId: 'Anna@Shop.example' }, payerMessage: 'club' },
    ];
    for (const body of mine) await http.create(CREATE, body, { token });
    await http.get(`${CREATE}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, token); // settles

    const walk = vi.spyOn(engine.internals.ledger, 'all');
    const list = async (path: string) =>
      (await (await http.get(`/collection/v1_0/preapprovals/${path}`, token)).json()) as {
        preApprovalId: string;
        message: string;
      }[];
    const byMsisdn = await list(`msisdn/${APPROVES}`);
    expect(byMsisdn.map((p) => p.message)).toEqual(['gym']);
    const byEmail = await list('email/anna@shop.example'); // any letter case
    expect(byEmail.map((p) => p.message)).toEqual(['club']);
    expect(await list('alias/anyone')).toEqual([]);

    const id = byMsisdn[0]?.preApprovalId ?? '';
    const cancel = await http.send('DELETE', `/collection/v1_0/preapproval/${id.toUpperCase()}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(cancel.status).toBe(200);
    expect(await list(`msisdn/${APPROVES}`)).toEqual([]);
    const unknown = await http.send(
      'DELETE',
      `/collection/v1_0/preapproval/${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(unknown.status).toBe(404);
    expect(walk).not.toHaveBeenCalled();
  });
});
