/**
 * The provider of the school-year test (test/subscriptions/school-year.test.ts), in a
 * process of its own: the SDK's simulator served over HTTP, its clock stopped and moved
 * only by the driver, every callback delivered twice, and the payers' wallets played here.
 * Nothing settles by itself (`settleMs` longer than the run): a loop answers each pending
 * transaction within milliseconds as its payer would (a pre-approval approved, or left
 * pending for a payer who never answers, or declined when it states a fee that payer
 * refuses; a request to pay paid, or refused NOT_ENOUGH_FUNDS while that payer is short).
 * What it answers about charges and mandates comes from its own ledger, never from the
 * partner's store.
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { serveParent } from '../worker';

/** How the payers answer (set by the driver; MSISDNs). */
export interface Wallets {
  /** Payers who never answer a mandate (until `approvePending`). */
  silent: string[];
  /** Payers who decline a mandate whose message contains `text` (a fee they refuse). */
  refuse: { msisdn: string; text: string }[];
  /** Payers short of funds while the provider's clock is in [from, until). */
  short: { msisdns: string[]; from: number; until: number };
}

/** A request to pay or a pre-approval, as the provider holds it. */
export interface HeldTransaction {
  referenceId: string;
  operation: 'collection.requestToPay' | 'collection.preApproval';
  msisdn: string;
  amount: string | undefined;
  currency: string | undefined;
  status: string;
  reason: string | undefined;
  /** The request to pay's `externalId` (the SDK writes `<subscription id>:<period>`). */
  externalId: string | undefined;
  /** A pre-approval's message (the terms it states). */
  message: string | undefined;
  /** The pre-approval a request to pay was made under (its preApprovalId). */
  underPreApproval: string | undefined;
  /** A pre-approval's id at the provider and its state now, once approved. */
  preApprovalId: string | undefined;
  state: string | undefined;
  /** The provider's clock when it was accepted and when it became final. */
  at: number;
}

const NEVER_MS = 50 * 365 * 86_400_000;
let sim: Simulator | undefined;
let server: ListeningServer | undefined;
let wallets: Wallets = { silent: [], refuse: [], short: { msisdns: [], from: 0, until: 0 } };
let deliveries = 0;
/** Provider-clock times of acceptance, by reference id (the simulator keeps real ones). */
const acceptedAt = new Map<string, number>();

/** Sends a callback twice, one after the other (a runner killed meanwhile gets neither). */
const twice: typeof fetch = async (input, init) => {
  let first: Response | undefined;
  for (let n = 0; n < 2; n++) {
    deliveries += 1;
    try {
      const response = await fetch(input, init);
      await response.body?.cancel().catch(() => undefined);
      first ??= response;
    } catch (error) {
      if (n === 1 && first === undefined) throw error;
    }
  }
  return first as Response;
};

const bodyOf = (tx: { body: unknown }) => (tx.body ?? {}) as Record<string, unknown>;

/** One round of the payers' answers to whatever is pending now. */
function answer(): void {
  if (!sim) return;
  const now = sim.clock.now();
  for (const tx of sim.transactions) {
    if (!acceptedAt.has(tx.referenceId)) acceptedAt.set(tx.referenceId, now);
    if (tx.status !== 'PENDING') continue;
    const msisdn = tx.payer?.partyId ?? '';
    if (tx.operation === 'collection.preApproval') {
      if (wallets.silent.includes(msisdn)) continue;
      const message = String(bodyOf(tx).payerMessage ?? '');
      const refused = wallets.refuse.some((r) => r.msisdn === msisdn && message.includes(r.text));
      sim.decide(tx.referenceId, refused ? 'decline' : 'approve');
    } else if (tx.operation === 'collection.requestToPay') {
      const { msisdns, from, until } = wallets.short;
      if (tx.underPreApproval === undefined) continue; // a prompt: this school's payers ignore it
      if (msisdns.includes(msisdn) && now >= from && now < until) {
        sim.settle(tx.referenceId, 'FAILED', {
          code: 'NOT_ENOUGH_FUNDS',
          message: 'The payer does not have enough funds.',
        });
      } else sim.settle(tx.referenceId, 'SUCCESSFUL');
    }
  }
}

let answering: ReturnType<typeof setInterval> | undefined;

serveParent({
  async start(input: { startAt: number; currency: string }) {
    sim = createSimulator({
      settleMs: NEVER_MS, // only the payers' loop settles
      currency: input.currency,
      clock: { now: () => input.startAt }, // stopped: only `advance` moves it
      tokenTtlSeconds: 20 * 365 * 86_400, // tokens outlive the simulated year
      callbackFetch: twice,
    });
    server = await sim.listen({ port: 0 });
    answering = setInterval(answer, 15);
    const { baseUrl: _, ...credentials } = sim.credentials;
    return { url: server.url, credentials };
  },

  async wallets(input: Wallets) {
    wallets = input;
    return {};
  },

  /** Moves the provider's clock forward; resolves with its new time. */
  async advance(input: { ms: number }): Promise<number> {
    answer(); // what was sent before the move is answered at its own time
    sim?.clock.advance(input.ms);
    return sim?.clock.now() ?? 0;
  },

  /** The payer revokes every approved mandate of theirs (as from their phone). */
  async revoke(input: { msisdn: string }) {
    const momo = sim?.client();
    const listed = (await momo?.collection.getApprovedPreApprovals('msisdn', input.msisdn)) ?? [];
    for (const p of listed as { preApprovalId?: string }[]) {
      if (p.preApprovalId) await momo?.collection.cancelPreApproval(p.preApprovalId);
    }
    return { revoked: listed.length };
  },

  /** A silent payer answers at last: every pending pre-approval of theirs approved. */
  async approvePending(input: { msisdn: string }) {
    let approved = 0;
    for (const tx of sim?.transactions ?? []) {
      if (tx.operation !== 'collection.preApproval' || tx.status !== 'PENDING') continue;
      if (tx.payer?.partyId !== input.msisdn) continue;
      sim?.decide(tx.referenceId, 'approve');
      approved++;
    }
    wallets.silent = wallets.silent.filter((m) => m !== input.msisdn);
    return { approved };
  },

  /** How many transactions are pending (requests to pay under a mandate: answered at once). */
  async pending(): Promise<number> {
    return (sim?.transactions ?? []).filter((t) => t.status === 'PENDING').length;
  },

  /** Every request to pay and pre-approval the provider holds, with its state now. */
  async held(): Promise<{ transactions: HeldTransaction[]; deliveries: number }> {
    const transactions: HeldTransaction[] = [];
    for (const t of sim?.transactions ?? []) {
      if (t.operation !== 'collection.requestToPay' && t.operation !== 'collection.preApproval')
        continue;
      const body = bodyOf(t);
      transactions.push({
        referenceId: t.referenceId.toLowerCase(),
        operation: t.operation,
        msisdn: t.payer?.partyId ?? '',
        amount: t.amount,
        currency: t.currency ?? (body.payerCurrency as string | undefined),
        status: t.status,
        reason: t.reason?.code,
        externalId: body.externalId as string | undefined,
        message: body.payerMessage as string | undefined,
        underPreApproval: t.underPreApproval,
        preApprovalId: t.preApproval?.preApprovalId,
        state: t.preApproval?.state,
        at: acceptedAt.get(t.referenceId) ?? 0,
      });
    }
    return { transactions, deliveries };
  },

  async close() {
    if (answering) clearInterval(answering);
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
