import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferBody } from '../support/fake-service';
import { putCallback, startProvider, startReceiver } from './support';

// Forged callbacks for ids the receiver knows pending each cost a lookup (one per id,
// however many name it), and the lookups run `maxConfirms` at a time. A genuine callback
// arriving behind 2,000 of them must not wait for all of their lookups (30 s for 1,000 at
// a real provider's pace). Counted, not timed: the lookups hang until every callback is
// in, and the position of the genuine one's lookup among those that follow is the delay.
const FORGED = 2_000;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const settled = new Set<string>();
  const provider = await startProvider(
    (id) => (settled.has(id) ? 'SUCCESSFUL' : 'PENDING'),
    released,
  );
  closers.push(provider.close);
  const events: string[] = [];
  const receiver = await startReceiver(provider.options, {
    onEvent: (event) => void events.push(`${event.referenceId} ${event.status}`),
  });
  closers.push(receiver.close);
  const ids: string[] = [];
  for (let i = 0; i < FORGED + 1; i++) {
    ids.push((await receiver.momo.disbursement.deposit(transferBody)).referenceId);
  }
  return { provider, receiver, ids, settled, events, release };
}

/** Sends `count` callbacks at a time, all of them. */
async function sendAll(url: string, ids: string[], status: string) {
  for (let i = 0; i < ids.length; i += 200) {
    const answers = await Promise.all(
      ids.slice(i, i + 200).map((id) => putCallback(url, id, { status })),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);
  }
}

describe('callback confirmations are fair to a genuine callback behind forged ones', () => {
  it('2,000 forged callbacks for known ids, then the genuine one: looked up within the next 2 x maxConfirms', async () => {
    const { provider, receiver, ids, settled, events, release } = await setUp();
    const genuine = ids.pop() as string;
    await sendAll(receiver.url, ids, 'SUCCESSFUL'); // forged: the provider says PENDING
    settled.add(genuine);
    expect((await putCallback(receiver.url, genuine, { status: 'SUCCESSFUL' })).status).toBe(202);
    const before = provider.lookups.length; // the lookups in flight (maxConfirms: 8)
    expect(before).toBe(8);
    release();
    await vi.waitFor(() => expect(events).toContain(`${genuine} SUCCESSFUL`), 60_000);
    const position = provider.lookups.indexOf(genuine) - before;
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position).toBeLessThan(16); // not after the 1,992 queued forgeries
  }, 180_000);

  it('the genuine callback for an id a forgery queued earlier moves it up (renamed: the newest)', async () => {
    const { provider, receiver, ids, settled, events, release } = await setUp();
    await sendAll(receiver.url, ids, 'SUCCESSFUL');
    const genuine = ids[100] as string; // queued early by its forgery: the oldest turn is far
    settled.add(genuine);
    await putCallback(receiver.url, genuine, { status: 'SUCCESSFUL' });
    const before = provider.lookups.length;
    release();
    await vi.waitFor(() => expect(events).toContain(`${genuine} SUCCESSFUL`), 60_000);
    expect(provider.lookups.indexOf(genuine) - before).toBeLessThan(16);
  }, 180_000);
});
