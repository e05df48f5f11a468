import type { CallbackHandler } from 'momo-partner-sdk';
import { RedisCallbackBus, RedisJournal } from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
const slow = { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 };

describeWithRedis('the callback bus is a hint (real redis-server)', () => {
  let server: RedisServer;
  const connections: ConnectedClient[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close();
    server?.dispose();
  });

  it('a raw PUBLISH of a forged SUCCESSFUL does not end a wait; the genuine callback still does, promptly', {
    timeout: 30_000,
  }, async () => {
    const [a, b, raw] = await Promise.all([
      connectClient('ioredis', server.url),
      connectClient('node-redis', server.url),
      connectClient('node-redis', server.url),
    ]);
    connections.push(a, b, raw);
    const rawCommand = (args: string[]) =>
      (raw.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);
    const prefix = `hint-${process.pid}:`;
    const busOfA = new RedisCallbackBus(a.client, { prefix });
    const busOfB = new RedisCallbackBus(b.client, { prefix });
    let handlerOfB: CallbackHandler | undefined;
    const sim = createSimulator({
      callbackFetch: (input, init) => (handlerOfB as CallbackHandler)(new Request(input, init)),
    });
    // Instance A waits (it would not poll for a minute); instance B receives the callbacks.
    const instanceA = sim.client({
      callbackBus: busOfA,
      journal: new RedisJournal(a.client, { prefix }),
      polling: slow,
      callbackUrl: 'https://b.partner.test/momo/{referenceId}',
    });
    const instanceB = sim.client({
      callbackBus: busOfB,
      journal: new RedisJournal(b.client, { prefix }),
      polling: slow,
    });
    handlerOfB = instanceB.callbacks.handler();
    await vi.waitFor(async () => {
      expect(await rawCommand(['PUBSUB', 'NUMSUB', busOfA.channel])).toEqual([busOfA.channel, 2]);
    });

    const accepted = await instanceA.disbursement.deposit({
      amount: '10',
      currency: 'EUR',
      externalId: 'order-1',
      payee: { partyIdType: 'MSISDN', partyId: PENDING_PAYEE },
    });
    const id = accepted.referenceId;
    const statuses: string[] = [];
    const waiting = accepted.wait({ timeoutMs: 20_000, onStatus: (r) => statuses.push(r.status) });
    const lookups = () =>
      sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(id)).length;

    const forged = JSON.stringify({ referenceId: id, result: { status: 'SUCCESSFUL' } });
    await rawCommand(['PUBLISH', busOfA.channel, forged]);
    // The message makes A look up now; the service says PENDING, and the wait goes on.
    await vi.waitFor(() => expect(statuses).toEqual(['PENDING']));
    expect(lookups()).toBe(1);

    sim.settle(id, 'FAILED'); // the service calls B back; B confirms and tells A
    const final = await waiting; // long before A's next poll (a minute away)
    expect(final).toMatchObject({ referenceId: id, status: 'FAILED' });
    expect(statuses).toEqual(['PENDING', 'FAILED']);
    expect(lookups()).toBe(3); // A's after the forgery, B's confirmation, A's after B's hint
    await busOfA.close();
    await busOfB.close();
  });
});
