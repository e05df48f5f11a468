import { isValidationError } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

// The live-client path of `tenants.client(id)`, taken on every call: a Map hit and the
// client's settled promise, the recency kept exactly (issue 40: the layer's cost per call).
function setUp(maxLive: number) {
  const sim = createSimulator({ settleMs: 0 });
  const resolved: string[] = [];
  const tenants = new Tenants({
    resolve: async (id) => {
      resolved.push(id);
      await new Promise((r) => setTimeout(r, 5));
      return { ...sim.credentials };
    },
    client: { fetch: sim.fetch },
    maxLive,
  });
  return { tenants, resolved };
}

describe('Tenants: a live client', () => {
  it('is handed back as one settled promise, the same on every call', async () => {
    const { tenants } = setUp(2);
    const momo = await tenants.client('merchant-a');
    const first = tenants.client('merchant-a');
    const second = tenants.client('merchant-a');
    expect(second).toBe(first);
    expect(await first).toBe(momo);
  });

  it('keeps the least recently used order exact across uses, repeated uses and makes', async () => {
    const { tenants, resolved } = setUp(3);
    const a = await tenants.client('merchant-a');
    const b = await tenants.client('merchant-b');
    await tenants.client('merchant-c');
    // Oldest first: a b c. Used: a (to the end), b twice (the second on the newest).
    expect(await tenants.client('merchant-a')).toBe(a);
    expect(await tenants.client('merchant-b')).toBe(b);
    expect(await tenants.client('merchant-b')).toBe(b);
    await tenants.client('merchant-d'); // c a b d: c evicted
    expect(tenants.size).toBe(3);
    expect(await tenants.client('merchant-a')).toBe(a); // b d a, live: nothing resolved
    await tenants.client('merchant-c'); // made again: b evicted
    const d = await tenants.client('merchant-d'); // d live still
    expect(await tenants.client('merchant-a')).toBe(a);
    const again = await tenants.client('merchant-b'); // c d a: made again, c evicted
    expect(again).not.toBe(b);
    expect(await tenants.client('merchant-d')).toBe(d);
    expect(resolved).toEqual([
      'merchant-a',
      'merchant-b',
      'merchant-c',
      'merchant-d',
      'merchant-c',
      'merchant-b',
    ]);
    expect(tenants.size).toBe(3);
  });

  it('while its refresh reads the credentials again, calls get the new client', async () => {
    const sim = createSimulator({ settleMs: 0 });
    let reading: (() => void) | undefined;
    let release: (() => void) | undefined;
    const read = new Promise<void>((r) => (reading = r));
    const gate = new Promise<void>((r) => (release = r));
    let reads = 0;
    const tenants = new Tenants({
      resolve: async () => {
        if (++reads === 2) {
          reading?.();
          await gate; // the refresh's read, held until the test lets it go
        }
        return { ...sim.credentials };
      },
      client: { fetch: sim.fetch },
    });
    const old = await tenants.client('merchant-a');
    const refreshing = tenants.refresh('merchant-a');
    await read; // the new client is being made: the live one is the old
    const during = tenants.client('merchant-a');
    release?.();
    await refreshing;
    const fresh = await during;
    expect(fresh).not.toBe(old);
    expect(await tenants.client('merchant-a')).toBe(fresh);
    expect(reads).toBe(2);
  });

  it('an id that is not a tenant id is still refused, live clients or not', async () => {
    const { tenants } = setUp(2);
    await tenants.client('merchant-a');
    for (const id of ['merchant-a/', '../merchant-a', 42]) {
      const error = await tenants.client(id as string).catch((e: unknown) => e);
      expect(isValidationError(error) && error.field === 'tenantId').toBe(true);
    }
  });
});
