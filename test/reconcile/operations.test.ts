import { readdirSync, readFileSync } from 'node:fs';
import { isNotFoundError } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import type { TableOperation } from '../../src/products/endpoints';
import { lookupFor } from '../../src/reconcile/operations';
import { confirmedOperations } from '../support/confirmed-operations';

const confirmed = confirmedOperations;

describe("reconcile's operations map", () => {
  it('has a lookup for every creating operation the tables confirm by one, and says why not for the others', () => {
    for (const name of confirmed.keys()) expect(typeof lookupFor(name), name).toBe('function');
    expect(lookupFor('collection.redeemVoucher')).toMatch(/only by callback/);
    expect(lookupFor('collection.nope')).toMatch(/is not an operation with a status lookup/);
  });

  it("looks each up through the public method that sends the tables' lookup", async () => {
    const sim = createSimulator();
    const momo = sim.client();
    for (const name of confirmed.keys()) {
      const lookup = lookupFor(name);
      if (typeof lookup === 'string') throw new Error(lookup);
      const id = crypto.randomUUID();
      await expect(lookup(momo, id, {}), name).rejects.toSatisfy(isNotFoundError);
      const last = sim.requests.at(-1);
      const expected = confirmed.get(name) as TableOperation;
      expect(`${last?.method} ${last?.path}`, name).toBe(
        `${expected.method} ${expected.path.replace('{referenceId}', id)}`,
      );
    }
  });
});

describe('src/reconcile', () => {
  it("imports only the client's public surface: public types, its errors and guards", () => {
    const imports = readdirSync('src/reconcile').flatMap((file) =>
      [
        ...readFileSync(`src/reconcile/${file}`, 'utf8').matchAll(
          /^import (type )?[^;]*? from '([^']+)'/gms,
        ),
      ]
        .map((m) => `${m[1] ? 'type ' : ''}${m[2]}`)
        .filter((from) => !/^(type )?\.\/[\w-]+$/.test(from)),
    );
    // Types the main entry exports (named from their modules: importing the entry itself
    // would close an import circle through the client), the client's public face, errors.
    const allowed = new Set([
      'type ../client-surface',
      'type ../contracts/batch-store',
      'type ../contracts/journal',
      'type ../contracts/outbox-store',
      'type ../core/options',
      'type ../schemas/tolerant',
      '../errors',
      '../catalogue/operations', // the catalogue of payment operations
      '../payments/concurrency-limit', // the kernel: its one concurrency limiter
      '../payments/decimal', // the kernel: its one decimal rule
    ]);
    expect(imports.filter((from) => !allowed.has(from))).toEqual([]);
  });
});
