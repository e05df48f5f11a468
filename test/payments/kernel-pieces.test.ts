/**
 * The kernel's small shared pieces, one of each under every driver: the concurrency
 * limiter, the decimal rule, the default lease and the owner ids.
 */
import { DEFAULT_LEASE_MS as PUBLIC_DEFAULT_LEASE_MS } from 'momo-partner-sdk';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LEASE_MS } from '../../src/payments/claims';
import { ConcurrencyLimit, forEachLimited } from '../../src/payments/concurrency-limit';
import { addDecimal, canonicalDecimal, isDecimalText } from '../../src/payments/decimal';
import { ownerId } from '../../src/payments/ids';

describe('the concurrency limiter', () => {
  it('holds at most its limit, and hands places on in the order asked', async () => {
    const limit = new ConcurrencyLimit(2);
    const order: number[] = [];
    await limit.acquire();
    expect(limit.tryAcquire()).toBe(true);
    expect(limit.tryAcquire()).toBe(false);
    const waiting = [3, 4].map((n) => limit.acquire().then(() => order.push(n)));
    limit.release();
    limit.release();
    await Promise.all(waiting);
    expect(order).toEqual([3, 4]);
    expect(limit.free).toBe(0);
  });

  it('runs a list at most `limit` at once, and throws the first error once all ended', async () => {
    let running = 0;
    let most = 0;
    let ended = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    let next = 0;
    const error = await forEachLimited(
      3,
      () => items[next++],
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        ended += 1;
        if (item === 5) throw new Error('item 5');
      },
    ).catch((e: unknown) => e);
    expect(most).toBe(3);
    expect((error as Error).message).toBe('item 5');
    expect(running).toBe(0); // none left running when it threw
    expect(ended).toBeLessThan(20); // no more taken after the failure
  });
});

describe('the decimal rule', () => {
  it('reads an amount as the wire does, leading and trailing zeros aside', () => {
    for (const good of ['0', '100', '12.50', '0100.00', '007.5']) {
      expect(isDecimalText(good), good).toBe(true);
    }
    for (const bad of ['', '.5', '5.', '-1', '1e3', '1.2.3', ' 1', '1,5', 12, undefined]) {
      expect(isDecimalText(bad), String(bad)).toBe(false);
    }
    expect(canonicalDecimal('0100.500')).toBe('100.5');
    expect(canonicalDecimal('10.00')).toBe('10');
    expect(canonicalDecimal('ten')).toBe('ten');
    expect(addDecimal('10.5', '0.25')).toBe('10.75');
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
  });
});

describe('the default lease and owner ids', () => {
  it('is one 15 s lease, the one the main entry offers store implementers', () => {
    expect(DEFAULT_LEASE_MS).toBe(15_000);
    expect(PUBLIC_DEFAULT_LEASE_MS).toBe(DEFAULT_LEASE_MS);
  });

  it('names each process by its kind of driver, never twice the same', () => {
    const ids = ['batch', 'relay', 'subscription'].map((kind) =>
      ownerId(kind as 'batch' | 'relay' | 'subscription'),
    );
    expect(ids[0]).toMatch(/^batch-[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^relay-[0-9a-f-]{36}$/);
    expect(ids[2]).toMatch(/^subscription-[0-9a-f-]{36}$/);
    expect(ownerId('batch')).not.toBe(ids[0]);
  });
});

describe('reference ids and fingerprints', () => {
  const SECRET = 'kernel-pieces-secret-0123';
  const inputs: [string, string][] = [
    ['b1', 'r1'],
    ['payroll 2026-11', 'employee "7"'],
    ['ünïcode ✓', 'ключ-🙂'],
  ];
  const bodies: unknown[] = [
    { amount: '10', payee: { partyId: '46733123454', partyIdType: 'MSISDN' } },
    { z: [3, { b: 1, a: 2 }], a: null, note: 'ünï ✓' },
  ];

  it('derive the same bytes with Node crypto and with Web Crypto (a browser, an edge runtime)', async () => {
    const node = await import('../../src/payments/ids');
    await node.fingerprint('transfer', {}); // finds Node crypto (loaded once, on first use)
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const digest = vi.spyOn(globalThis.crypto.subtle, 'digest');
    // A fresh copy of the module that finds no Node crypto: the Web Crypto path.
    vi.resetModules();
    const getBuiltinModule = process.getBuiltinModule;
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      const web = await import('../../src/payments/ids');
      for (const [batch, key] of inputs) {
        const id = await node.derivedReferenceId(SECRET, batch, key);
        expect(await web.derivedReferenceId(SECRET, batch, key)).toBe(id);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        const other = await node.derivedReferenceId(SECRET, batch, key, 'momo-subscription:v1');
        expect(await web.derivedReferenceId(SECRET, batch, key, 'momo-subscription:v1')).toBe(
          other,
        );
        expect(other).not.toBe(id);
      }
      for (const body of bodies) {
        const print = await node.fingerprint('transfer', body);
        expect(await web.fingerprint('transfer', body)).toBe(print);
        expect(print).toMatch(/^[0-9a-f]{64}$/);
      }
      // Each arm took its own path: Web Crypto once per id and print, from the web copy only.
      expect(sign).toHaveBeenCalledTimes(inputs.length * 2);
      expect(digest).toHaveBeenCalledTimes(bodies.length);
    } finally {
      process.getBuiltinModule = getBuiltinModule;
      sign.mockRestore();
      digest.mockRestore();
    }
  });
});
