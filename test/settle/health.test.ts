import { InMemoryJournal, type StoredToken, type TokenStore } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

const body = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
};
const unreachable = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, logger: { warn: at('warn'), info: at('info'), error: at('error') } };
}

/** A token store that works, in memory. */
function workingStore(): TokenStore {
  const tokens = new Map<string, StoredToken>();
  return {
    get: async (key) => tokens.get(key),
    set: async (key, token) => void tokens.set(key, token),
    delete: async (key) => void tokens.delete(key),
  };
}

/** A journal every call of which fails with `error()`. */
function failingJournal(error: () => Error) {
  const inner = new InMemoryJournal();
  let failing = true;
  const guard = <T>(call: () => Promise<T>) => (failing ? Promise.reject(error()) : call());
  return {
    recover: () => {
      failing = false;
    },
    journal: {
      record: (e: Parameters<InMemoryJournal['record']>[0]) => guard(() => inner.record(e)),
      finish: (id: string, o: Parameters<InMemoryJournal['finish']>[1], at: number) =>
        guard(() => inner.finish(id, o, at)),
      get: (id: string) => guard(() => inner.get(id)),
      pending: () => guard(() => inner.pending()),
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('health of each shared component, apart', () => {
  it('one component down, another fine: one warning for it, nothing about the other, no flip', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const { journal, recover } = failingJournal(unreachable);
    const { lines, logger } = recordingLogger();
    const momo = sim.client({ journal, tokenStore: workingStore(), logger });
    for (let i = 0; i < 5; i++) {
      await momo.disbursement.deposit(body).wait();
      await momo.collection.getBalance(); // the token store answers every time
    }
    expect(lines).toEqual([
      { level: 'warn', message: 'shared state unavailable (journal): continuing in memory' },
    ]);
    expect(momo.health()).toEqual({
      journal: {
        state: 'unavailable',
        since: expect.any(Number),
        cause: 'Error (ECONNREFUSED)',
        failures: expect.any(Number),
      },
      tokenStore: { state: 'ok', since: undefined, cause: undefined, failures: 0 },
      callbackBus: { state: 'in-process', since: undefined, cause: undefined, failures: 0 },
    });
    expect(momo.health().journal.failures).toBe(5); // 5 records (their outcomes wait with them)

    recover();
    await momo.disbursement.deposit(body).wait();
    expect(lines.slice(1)).toEqual([
      { level: 'info', message: 'shared state reachable again (journal)' },
    ]);
    expect(momo.health().journal).toMatchObject({ state: 'ok', failures: 0 });
  });

  it('a component that answers with errors is failing: an error, repeated each minute it lasts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sim = createSimulator({ settleMs: 0 });
    const refused = () =>
      Object.assign(new Error('CROSSSLOT'), { name: 'RedisCommandError', code: 'CROSSSLOT' });
    const { journal } = failingJournal(refused);
    const { lines, logger } = recordingLogger();
    const momo = sim.client({ journal, logger });
    await momo.disbursement.deposit(body);
    await momo.disbursement.deposit(body);
    expect(lines.map((l) => l.level)).toEqual(['error']);
    expect(lines[0]?.message).toMatch(/^shared state failing \(journal\): .*fix its configuration/);
    expect(momo.health().journal).toMatchObject({
      state: 'failing',
      cause: 'RedisCommandError (CROSSSLOT)',
      failures: 2,
    });
    vi.setSystemTime(Date.now() + 61_000);
    await momo.disbursement.deposit(body);
    expect(lines.map((l) => l.level)).toEqual(['error', 'error']);
    expect((await momo.journal.pending()).length).toBe(3); // kept in memory, listed
  });
});
