import { EventEmitter } from 'node:events';
import {
  type CallbackBus,
  type CallbackBusEvent,
  type CallbackHandler,
  InMemoryJournal,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

/** A bus within one process: what Redis pub/sub is between processes. */
class LocalBus implements CallbackBus {
  readonly #emitter = new EventEmitter();
  readonly published: CallbackBusEvent[] = [];
  async publish(event: CallbackBusEvent) {
    this.published.push(event);
    this.#emitter.emit('event', event);
  }
  async subscribe(listener: (event: CallbackBusEvent) => void) {
    this.#emitter.on('event', listener);
    return async () => void this.#emitter.off('event', listener);
  }
  /** Anything at all, as a foreign publisher on the same channel might send. */
  raw(value: unknown) {
    this.#emitter.emit('event', value);
  }
}

const PENDING_PAYEE = '46733123453';
const body = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: PENDING_PAYEE },
};
const slow = { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 };

/** Two instances sharing a bus and a journal; the service calls B back. */
function twoInstances() {
  let handlerOfB: CallbackHandler | undefined;
  const sim = createSimulator({
    callbackFetch: (input, init) => (handlerOfB as CallbackHandler)(new Request(input, init)),
  });
  const bus = new LocalBus();
  const journal = new InMemoryJournal(); // shared, as a Redis journal would be
  const shared = { callbackBus: bus, journal, polling: slow };
  const a = sim.client({ ...shared, callbackUrl: 'https://b.partner.test/momo/{referenceId}' });
  const b = sim.client(shared);
  handlerOfB = b.callbacks.handler();
  const lookups = (id: string) =>
    sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(id)).length;
  return { sim, bus, a, b, lookups };
}

describe('callback fan-out through a CallbackBus', () => {
  it("a callback confirmed by B makes A's wait look up at once (the bus is a hint)", async () => {
    const { sim, bus, a, lookups } = twoInstances();
    const accepted = await a.disbursement.deposit(body);
    const waiting = accepted.wait();
    sim.settle(accepted.referenceId, 'SUCCESSFUL');
    const final = await waiting;
    expect(final).toMatchObject({ referenceId: accepted.referenceId, status: 'SUCCESSFUL' });
    expect(lookups(accepted.referenceId)).toBe(2); // B's confirmation, and A's own lookup
    expect(bus.published).toEqual([
      {
        referenceId: accepted.referenceId,
        result: expect.objectContaining({ status: 'SUCCESSFUL' }),
      },
    ]);
    expect(await a.journal.pending()).toEqual([]);
  });

  it('a forged callback publishes nothing and ends no wait', async () => {
    const { bus, a, b, lookups } = twoInstances();
    const accepted = await a.disbursement.deposit(body);
    let ended = false;
    // Ended by this test once it has looked (a deadline could pass on a busy machine first).
    const stop = new AbortController();
    const waiting = accepted.wait({ signal: stop.signal }).finally(() => {
      ended = true;
    });
    const forged = await b.callbacks.handler()(
      new Request(`https://b.partner.test/momo/${accepted.referenceId}`, {
        method: 'POST',
        body: JSON.stringify({ status: 'SUCCESSFUL' }),
      }),
    );
    expect(forged.status).toBe(202); // a claim, accepted: the lookup decides
    await expect.poll(() => lookups(accepted.referenceId), { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bus.published).toEqual([]);
    expect(ended).toBe(false);
    expect(lookups(accepted.referenceId)).toBe(1); // B's check only
    stop.abort(new Error('looked long enough'));
    expect(await waiting.catch((e) => e)).toBe(stop.signal.reason); // nothing else ended it
  });

  it('wakes nothing with a malformed or non-final event', async () => {
    const { bus, a, lookups } = twoInstances();
    const accepted = await a.disbursement.deposit(body);
    let ended = false;
    const stop = new AbortController();
    const waiting = accepted.wait({ signal: stop.signal }).finally(() => {
      ended = true;
    });
    bus.raw({ referenceId: accepted.referenceId, result: { status: 'PENDING' } });
    bus.raw({ referenceId: 'not-a-uuid', result: { status: 'SUCCESSFUL' } });
    bus.raw({ referenceId: accepted.referenceId });
    bus.raw('SUCCESSFUL');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    expect(lookups(accepted.referenceId)).toBe(0);
    stop.abort(new Error('looked long enough'));
    expect(await waiting.catch((e) => e)).toBe(stop.signal.reason);
  });
});
