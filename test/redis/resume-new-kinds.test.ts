import {
  InMemoryJournal,
  type Journal,
  type JournalEntry,
  MomoClient,
  type MomoClientOptions,
} from 'momo-partner-sdk';
import { createRedisState } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, LIBRARIES } from './support/clients';
import { Instance, until } from './support/instances';
import { describeWithRedis, RedisServer } from './support/redis-server';

// Each creating call DESIGN 7.1 added that has a status lookup, sent and left pending in
// the journal; a fresh client (another process, for Redis) resumes them; the account
// holder decides each on the simulator; resume settles every one, and nothing is re-sent.

const PENDING = '46733123453'; // stays PENDING until decided (docs/simulator.md)
const party = (partyId: string) => ({ partyIdType: 'MSISDN', partyId }) as const;
const money = { amount: '10', currency: 'EUR' };
const FAST = { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 30_000 };
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 120_000 };

interface Kind {
  operation: string;
  decision: 'approve' | 'decline';
  send(momo: MomoClient, refundable: string): Promise<{ referenceId: string }>;
}

/** One of each; half approved, half declined, so both final statuses are resumed. */
const KINDS: Kind[] = [
  {
    operation: 'collection.preApproval',
    decision: 'approve',
    send: (momo) =>
      momo.collection.preApproval({
        payer: party(PENDING),
        payerCurrency: 'EUR',
        validityTime: 600,
      }),
  },
  {
    operation: 'collection.createInvoice',
    decision: 'approve',
    send: (momo) =>
      momo.collection.createInvoice({
        ...money,
        externalId: 'inv-1',
        validityDuration: '3600',
        intendedPayer: party(PENDING),
        payee: party('46733123998'),
      }),
  },
  {
    operation: 'collection.createPayment',
    decision: 'decline',
    send: (momo) => momo.collection.createPayment({ money, customerReference: PENDING }),
  },
  {
    operation: 'collection.requestToWithdrawV1',
    decision: 'decline',
    send: (momo) => momo.collection.requestToWithdrawV1({ ...money, payer: party(PENDING) }),
  },
  {
    operation: 'disbursement.depositV2',
    decision: 'approve',
    send: (momo) => momo.disbursement.depositV2({ ...money, payee: party(PENDING) }),
  },
  {
    operation: 'disbursement.refundV2',
    decision: 'approve',
    // A refund has no deciding party: the simulator's long settleMs keeps it PENDING.
    send: (momo, refundable) =>
      momo.disbursement.refundV2({ amount: '5', currency: 'EUR', referenceIdToRefund: refundable }),
  },
];
const finalOf = (kind: Kind) => (kind.decision === 'approve' ? 'SUCCESSFUL' : 'FAILED');

let sim: Simulator;
let server: ListeningServer;

beforeAll(async () => {
  // Nothing settles by itself for ten minutes: only sim.decide() ends an operation.
  sim = createSimulator({ settleMs: 600_000 });
  server = await sim.listen({ port: 0 });
});
afterAll(() => server?.close());
afterEach(() => sim.reset());

function clientOptions(journal: Journal): MomoClientOptions {
  const { baseUrl: _, ...credentials } = sim.credentials;
  return { ...credentials, baseUrl: server.url, polling: FAST, journal };
}

/**
 * Sends every kind with a client on `journal` and leaves them pending there. Returns the
 * reference id of each, by operation.
 */
async function sendAndLeave(journal: Journal): Promise<Map<string, string>> {
  const momo = new MomoClient(clientOptions(journal));
  // The refund needs a successful deposit to refund (seen final, so not left pending).
  const original = await momo.disbursement.deposit({ ...money, payee: party(PENDING) });
  sim.settle(original.referenceId, 'SUCCESSFUL');
  await original.wait();
  const sent = new Map<string, string>();
  for (const kind of KINDS) {
    sent.set(kind.operation, (await kind.send(momo, original.referenceId)).referenceId);
  }
  const pending = await momo.journal.pending();
  expect(pending.map((e) => [e.operation, e.referenceId])).toEqual([...sent]);
  expect(sim.transactions.filter((t) => t.status === 'PENDING')).toHaveLength(KINDS.length);
  return sent;
}

/** Once the resuming client has looked every one up, the account holder decides each. */
async function decideWhenLookedUp(sent: Map<string, string>) {
  const lookedUp = (id: string) =>
    sim.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${id}`));
  await until(() => [...sent.values()].every(lookedUp), 60_000);
  for (const kind of KINDS) sim.decide(sent.get(kind.operation) as string, kind.decision);
}

/** Every one settled to its decided status; one transaction and one creating request each. */
function expectSettledOnce(
  sent: Map<string, string>,
  outcomes: { referenceId: string; status: string }[],
) {
  expect(outcomes).toEqual(
    KINDS.map((kind) => ({ referenceId: sent.get(kind.operation), status: finalOf(kind) })),
  );
  for (const kind of KINDS) {
    const id = sent.get(kind.operation) as string;
    const transactions = sim.transactions.filter((t) => t.referenceId === id);
    expect(transactions, kind.operation).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ operation: kind.operation, status: finalOf(kind) });
    const creating = sim.requests.filter((r) => r.headers['x-reference-id'] === id);
    expect(creating, `${kind.operation} sent once`).toHaveLength(1);
  }
}

describe('in-memory journal: a fresh client in the same process, on the same journal object', () => {
  // An in-memory journal does not outlive its process: the nearest a "fresh process" gets.
  it('resume() settles every new kind to its decided status; none re-sent', SLOW, async () => {
    const journal = new InMemoryJournal();
    const sent = await sendAndLeave(journal);
    const fresh = new MomoClient(clientOptions(journal));
    const resumed = fresh.journal.resume({ concurrency: KINDS.length });
    await decideWhenLookedUp(sent);
    const outcomes = (await resumed).map((o) => ({
      referenceId: o.entry.referenceId,
      status: o.status,
    }));
    expectSettledOnce(sent, outcomes);
    expect(await fresh.journal.pending()).toEqual([]);
  });
});

describeWithRedis('Redis journal: a fresh process resumes the new kinds', () => {
  let redis: RedisServer;
  let instance: Instance | undefined;
  let prefixes = 0;

  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(() => redis?.dispose());
  afterEach(async () => {
    await instance?.close();
    instance = undefined;
  });

  it.each(LIBRARIES)(
    '%s: sent and left by this process; a new process resumes every one; none re-sent',
    SLOW,
    async (library) => {
      const prefix = `resume-kinds${++prefixes}-${process.pid}:`;
      const connection = await connectClient(library, redis.url);
      const state = createRedisState(connection.client, { prefix });
      const sent = await sendAndLeave(state.journal);
      await state.close();
      await connection.close(); // this process is done with it: only Redis remembers

      instance = await Instance.spawn();
      const { baseUrl: _, ...credentials } = sim.credentials;
      const simulator = { ...credentials, baseUrl: server.url };
      await instance.call('init', {
        simulator,
        redisUrl: redis.url,
        prefix,
        library,
        polling: FAST,
      });
      const pending = await instance.call<JournalEntry[]>('pending');
      expect(pending.map((e) => e.referenceId)).toEqual([...sent.values()]);
      const resumed = instance.call<{ referenceId: string; status: string }[]>('resume', {
        concurrency: KINDS.length,
      });
      await decideWhenLookedUp(sent);
      expectSettledOnce(sent, await resumed);
      expect(await instance.call('pending')).toEqual([]);
    },
  );
});
