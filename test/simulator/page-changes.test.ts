import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The payer's page gets the whole state once per connection (`state`), then only what
// changed (`change`): with thousands of transactions, a settled one is one entry, not the
// whole state again (3.6 MB per event with 4,000 of them). A page that applies each
// change to its state holds what a new connection's `state` says.
const sim = createSimulator({ settleMs: 600_000 }); // pending until settled here
let server: ListeningServer;
beforeAll(async () => {
  server = await sim.listen();
});
afterAll(() => server.close());

interface SseEvent {
  event: string;
  data: string;
}

/** The page's event stream, read as events arrive. */
class PageStream {
  readonly #controller = new AbortController();
  readonly #events: SseEvent[] = [];
  #wake = () => {};
  #text = '';

  async open(): Promise<this> {
    const response = await fetch(`${server.url}/_simulator/events`, {
      signal: this.#controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        this.#text += decoder.decode(value, { stream: true });
        for (let end = this.#text.indexOf('\n\n'); end >= 0; end = this.#text.indexOf('\n\n')) {
          const block = this.#text.slice(0, end);
          this.#text = this.#text.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) this.#events.push({ event, data });
        }
        this.#wake();
      }
    })();
    return this;
  }

  /** The next event (of any name), waiting for it. */
  async next(): Promise<SseEvent> {
    while (this.#events.length === 0) await new Promise<void>((r) => (this.#wake = r));
    return this.#events.shift() as SseEvent;
  }

  close(): void {
    this.#controller.abort();
  }
}

const KEYS: Record<string, string> = {
  items: 'id',
  batches: 'id',
  payers: 'payer',
  callbacks: 'index',
  balances: 'product',
  faults: 'id',
  apiUsers: 'id',
};
type State = Record<string, unknown>;
type Entry = Record<string, unknown>;
interface ListChange {
  upsert?: [string, Entry][];
  remove?: string[];
  at?: 'start' | 'end';
  order?: string[];
}

/** A change applied as the protocol says (docs/simulator.md, "The page's events"). */
function apply(state: State, change: { set?: State; lists?: Record<string, ListChange> }): State {
  const next: State = { ...state, ...change.set };
  for (const [name, list] of Object.entries(change.lists ?? {})) {
    const field = KEYS[name] as string;
    const entries = new Map(
      (state[name] as Entry[]).map((entry) => [String(entry[field]), entry] as const),
    );
    const added = (list.upsert ?? []).filter(([key]) => !entries.has(key)).map(([key]) => key);
    for (const [key, entry] of list.upsert ?? []) entries.set(key, entry);
    for (const key of list.remove ?? []) entries.delete(key);
    const kept = (state[name] as Entry[])
      .map((entry) => String(entry[field]))
      .filter((key) => entries.has(key));
    const order = list.order ?? (list.at === 'start' ? [...added, ...kept] : [...kept, ...added]);
    next[name] = order.map((key) => entries.get(key));
  }
  return next;
}

/** A new connection's whole state. */
async function freshState(): Promise<State> {
  const stream = await new PageStream().open();
  const first = await stream.next();
  stream.close();
  expect(first.event).toBe('state');
  return JSON.parse(first.data) as State;
}

const ask = (partyId: string) =>
  sim.client().collection.requestToPay({
    amount: '5',
    currency: 'EUR',
    externalId: 'order',
    payer: { partyIdType: 'MSISDN', partyId },
  });

describe("the payer's page events", () => {
  it('the whole state once, then changes that a page applies to hold the same state', async () => {
    const asked = [];
    for (let i = 0; i < 400; i++) asked.push(await ask('46733123453'));
    const stream = await new PageStream().open();
    const first = await stream.next();
    expect(first.event).toBe('state');
    let state = JSON.parse(first.data) as State;
    expect(state.items).toHaveLength(400);

    // One settled: a change of one entry (and the balance), a small fraction of the state.
    sim.settle(asked[200]?.referenceId as string, 'SUCCESSFUL');
    const settled = await stream.next();
    expect(settled.event).toBe('change');
    expect(settled.data.length * 50).toBeLessThan(first.data.length);
    const change = JSON.parse(settled.data);
    expect(change.lists.items.upsert.map(([key]: [string]) => key)).toEqual([
      asked[200]?.referenceId,
    ]);
    state = apply(state, change);

    // A new one on top (no order sent: new keys go first), then a fresh page agrees.
    const newest = await ask('46733123453');
    const added = await stream.next();
    expect(added.event).toBe('change');
    const addition = JSON.parse(added.data);
    expect(addition.lists.items).toMatchObject({ at: 'start' });
    expect(addition.lists.items.order).toBeUndefined();
    expect(addition.lists.items.upsert.map(([key]: [string]) => key)).toEqual([newest.referenceId]);
    state = apply(state, addition);
    expect(state).toEqual(await freshState());
    stream.close();
  });
});
