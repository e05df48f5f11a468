import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { BATCH_OPERATIONS } from '../../src/batches/operations';
import type { TableOperation } from '../../src/products/endpoints';
import { confirmedOperations } from '../support/confirmed-operations';

const confirmed = confirmedOperations;

describe("the batch runner's operations map", () => {
  it('names every creating operation the tables confirm by a status lookup, but those needing a consent token', () => {
    const left = [...confirmed.keys()].filter((name) => !(name in BATCH_OPERATIONS));
    expect(Object.keys(BATCH_OPERATIONS).filter((name) => !confirmed.has(name))).toEqual([]);
    expect(left.every((name) => name.startsWith('consent.') || /consent/i.test(name))).toBe(true);
  });

  it("waits through the public method that sends the tables' lookup", async () => {
    const sim = createSimulator();
    const momo = sim.client();
    for (const [name, spec] of Object.entries(BATCH_OPERATIONS)) {
      const id = crypto.randomUUID();
      await expect(spec.wait(momo, id, { timeoutMs: 1_000 }), name).rejects.toBeDefined();
      const lookup = sim.requests.filter((r) => r.method === 'GET').at(-1);
      const expected = confirmed.get(name) as TableOperation;
      expect(`${lookup?.method} ${lookup?.path}`, name).toBe(
        `${expected.method} ${expected.path.replace('{referenceId}', id)}`,
      );
    }
  });
});
