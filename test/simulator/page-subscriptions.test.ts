import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The payer's phone page shows each payer's pre-approvals (mandates) and the requests to
// pay made under them: read here over HTTP, as the page gets them (the `state` events of
// /_simulator/events, which the page's script renders as text).
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1, 8); // 1 March 2026, 08:00 UTC
const sim = createSimulator({ settleMs: 0, clock: { now: () => T0 } });
const momo = sim.client();
const partner = sim.credentials.apiUser.id;
// 123453: payers who answer no prompt; pre-approvals wait for sim.decide().
const payer = (prefix: string) => ({ partyIdType: 'MSISDN' as const, partyId: `${prefix}123453` });
let server: ListeningServer;

beforeAll(async () => {
  server = await sim.listen();
});
afterAll(() => server.close());

interface Mandate {
  id: string;
  preApprovalId?: string;
  partner: string;
  status: string;
  reason?: string;
  decidable: boolean;
  validitySeconds?: number;
  payerMessage?: string;
  createdAt: number;
  approvedAt?: number;
  expiresAt?: number;
  renews?: string;
  renewedBy?: string;
  charges: { id: string; amount?: string; status: string; createdAt: number }[];
}
interface PageState {
  payers: { payer: string; mandates: Mandate[] }[];
  batches: { id: string }[];
}

/** The first `state` event the page gets from /_simulator/events. */
async function pageState(): Promise<PageState> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/_simulator/events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the event stream ended');
    text += decoder.decode(value, { stream: true });
    const data = /event: state\ndata: (.*)\n\n/.exec(text)?.[1];
    if (data !== undefined) {
      controller.abort();
      return JSON.parse(data) as PageState;
    }
  }
}

async function mandatesOf(who: { partyId: string }): Promise<Mandate[]> {
  const state = await pageState();
  return state.payers.find((p) => p.payer === `MSISDN ${who.partyId}`)?.mandates ?? [];
}

const ask = (who: ReturnType<typeof payer>, days: number) =>
  momo.collection.preApproval({
    payer: who,
    payerCurrency: 'EUR',
    payerMessage: 'Gym monthly',
    validityTime: days * 86_400,
  });
const charge = (who: ReturnType<typeof payer>) =>
  momo.collection.requestToPay({ amount: '50', currency: 'EUR', payer: who });

describe("simulator: subscriptions on the payer's page", () => {
  it('serves the page with its Subscriptions section', async () => {
    const response = await fetch(`${server.url}/_simulator/`);
    const html = await response.text();
    expect(html).toContain('<h2 id="subscriptions-title">Subscriptions</h2>');
    expect(html).toContain('<div id="payers"></div>');
  });

  it('shows a pending mandate with Approve and Decline, then DECLINED with its reason', async () => {
    const who = payer('233241');
    const mandate = await ask(who, 30);
    expect(await mandatesOf(who)).toMatchObject([
      { id: mandate.referenceId, partner, status: 'PENDING', decidable: true, charges: [] },
    ]);
    sim.decide(mandate.referenceId, 'decline');
    const [declined] = await mandatesOf(who);
    expect(declined).toMatchObject({
      status: 'DECLINED',
      reason: 'APPROVAL_REJECTED',
      decidable: false,
      payerMessage: 'Gym monthly',
      validitySeconds: 30 * 86_400,
      charges: [],
    });
    expect(declined?.expiresAt).toBeUndefined();
    // Nothing is charged under a declined mandate: the request is put to the payer.
    const after = await charge(who);
    expect(sim.transaction(after.referenceId)?.underPreApproval).toBeUndefined();
    expect((await mandatesOf(who))[0]?.charges).toEqual([]);
  });

  it('shows an approved mandate with its charges, then EXPIRED on the simulator clock', async () => {
    const who = payer('233242');
    const mandate = await ask(who, 1);
    sim.decide(mandate.referenceId, 'approve');
    const approvedAt = sim.clock.now();
    const first = await charge(who);
    sim.clock.advance(DAY / 2);
    const second = await charge(who);
    const [approved] = await mandatesOf(who);
    expect(approved).toMatchObject({
      status: 'APPROVED',
      approvedAt,
      expiresAt: approvedAt + DAY,
      decidable: false,
    });
    expect(approved?.charges.map((c) => [c.id, c.amount, c.status])).toEqual([
      [second.referenceId, '50', 'SUCCESSFUL'], // newest first
      [first.referenceId, '50', 'SUCCESSFUL'],
    ]);

    sim.clock.advance(DAY); // past its expiry
    const late = await charge(who); // prompted: the payer never answers
    expect(sim.transaction(late.referenceId)?.underPreApproval).toBeUndefined();
    const [expired] = await mandatesOf(who);
    expect(expired).toMatchObject({ status: 'EXPIRED', expiresAt: approvedAt + DAY });
    expect(expired?.charges.map((c) => c.id)).toEqual([second.referenceId, first.referenceId]);
  });

  it('shows a renewal on top of the mandate it renews; charges go under the newer', async () => {
    const who = payer('233243');
    const older = await ask(who, 30);
    sim.decide(older.referenceId, 'approve');
    const olderApproved = sim.clock.now();
    const underOlder = await charge(who);
    sim.clock.advance(24 * DAY); // the partner asks for the renewal before expiry
    const newer = await ask(who, 30);
    const meanwhile = await charge(who); // the renewal still PENDING: under the older one
    sim.decide(newer.referenceId, 'approve');
    const underNewer = await charge(who);

    const mandates = await mandatesOf(who);
    expect(mandates.map((m) => [m.id, m.status])).toEqual([
      [newer.referenceId, 'APPROVED'],
      [older.referenceId, 'APPROVED'],
    ]);
    const [renewal, renewed] = mandates;
    expect(renewal?.renews).toBe(older.referenceId);
    expect(renewed?.renewedBy).toBe(newer.referenceId);
    expect(renewed?.expiresAt).toBe(olderApproved + 30 * DAY);
    expect(renewal?.charges.map((c) => c.id)).toEqual([underNewer.referenceId]);
    expect(renewed?.charges.map((c) => c.id)).toEqual([
      meanwhile.referenceId,
      underOlder.referenceId,
    ]);
    expect(sim.transaction(underNewer.referenceId)?.underPreApproval).toBe(
      sim.transaction(newer.referenceId)?.preApproval?.preApprovalId,
    );

    sim.clock.advance(7 * DAY); // the older one expired, the renewal goes on
    expect((await mandatesOf(who)).map((m) => m.status)).toEqual(['APPROVED', 'EXPIRED']);
  });

  it("lists a subscription's tagged charges under the mandate, not as a batch", async () => {
    const who = payer('233245');
    const mandate = await ask(who, 30);
    sim.decide(mandate.referenceId, 'approve');
    const body = { amount: '50', currency: 'EUR', payer: who };
    const under = await momo.collection.requestToPay(body, { tag: 'member-45/0' });
    const [listed] = await mandatesOf(who);
    expect(listed?.charges.map((c) => c.id)).toEqual([under.referenceId]);
    expect(sim.transaction(under.referenceId)?.tag).toBe('member-45/0');
    expect((await pageState()).batches.map((b) => b.id)).not.toContain('member-45');
  });

  it('shows a mandate the partner cancelled as CANCELLED', async () => {
    const who = payer('233244');
    const mandate = await ask(who, 30);
    sim.decide(mandate.referenceId, 'approve');
    const [listed] = await momo.collection.getApprovedPreApprovals('msisdn', who.partyId);
    await momo.collection.cancelPreApproval(String(listed?.preApprovalId));
    expect(await mandatesOf(who)).toMatchObject([{ id: mandate.referenceId, status: 'CANCELLED' }]);
  });
});
