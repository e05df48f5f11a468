import {
  InMemoryJournal,
  type Journal,
  type JournalOutcome,
  type JournalRecord,
  type StoredToken,
  type TokenStore,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const body = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
};

/** A journal that can go away and come back, as Redis does. */
class FlakyJournal implements Journal {
  readonly inner = new InMemoryJournal();
  down = false;
  #check() {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  }
  async record(entry: JournalRecord) {
    this.#check();
    await this.inner.record(entry);
  }
  async finish(referenceId: string, outcome: JournalOutcome, at: number, reason?: string) {
    this.#check();
    await this.inner.finish(referenceId, outcome, at, reason);
  }
  async get(referenceId: string) {
    this.#check();
    return this.inner.get(referenceId);
  }
  async pending() {
    this.#check();
    return this.inner.pending();
  }
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
/** A token store that cannot be reached. */
const brokenStore: TokenStore = {
  get: () => Promise.reject(refused()),
  set: () => Promise.reject(refused()),
  delete: () => Promise.reject(refused()),
  lock: () => Promise.reject(refused()),
};

function recordingLogger() {
  const lines: { level: string; message: string; fields?: unknown }[] = [];
  const at = (level: string) => (message: string, fields?: unknown) =>
    void lines.push({ level, message, fields });
  return { lines, logger: { warn: at('warn'), info: at('info'), error: at('error') } };
}

describe('shared state unavailable: the client carries on in-process', () => {
  it('a journal that fails never fails a payment; one warning; entries reach it once it is back', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const journal = new FlakyJournal();
    const { lines, logger } = recordingLogger();
    const momo = sim.client({ journal, logger });

    journal.down = true;
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await momo.disbursement.deposit(body).wait());
    expect(during.map((r) => r.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'SUCCESSFUL']);
    const pendingOne = await momo.disbursement.transfer({
      ...body,
      payee: { partyIdType: 'MSISDN', partyId: '46733123453' }, // stays pending
    });
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: 'shared state unavailable (journal): continuing in memory',
        fields: { component: 'journal', cause: 'Error (ECONNREFUSED)' },
      },
    ]);
    // It cannot be read: what this process sent and has not seen final is still listed.
    expect((await momo.journal.pending()).map((e) => e.referenceId)).toEqual([
      pendingOne.referenceId,
    ]);
    expect(momo.health().journal).toMatchObject({
      state: 'unavailable',
      cause: 'Error (ECONNREFUSED)',
    });

    journal.down = false;
    await momo.disbursement.deposit(body).wait();
    expect(lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      'shared state reachable again (journal)',
    ]);
    for (let i = 0; i < 100 && (await journal.inner.pending()).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const result of during) {
      expect(await journal.inner.get(result.referenceId ?? '')).toMatchObject({
        outcome: 'SUCCESSFUL',
      });
    }
    expect((await journal.inner.pending()).map((e) => e.referenceId)).toEqual([
      pendingOne.referenceId,
    ]);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('a refusal settled while the journal fails reaches it FAILED with its code once it is back', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const journal = new FlakyJournal();
    const momo = sim.client({ journal, logger: recordingLogger().logger });
    journal.down = true;
    // The account takes EUR only: a 500 INVALID_CURRENCY, a refusal of this payment.
    const error = await momo.disbursement.deposit({ ...body, currency: 'GHS' }).catch((e) => e);
    expect(error).toMatchObject({ status: 500, code: 'INVALID_CURRENCY' });
    expect(await momo.journal.pending()).toEqual([]);

    journal.down = false;
    await momo.disbursement.deposit(body).wait(); // the journal answers: what was kept is copied
    for (let i = 0; i < 100 && !(await journal.inner.get(error.referenceId)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await journal.inner.get(error.referenceId)).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_CURRENCY',
    });
  });

  it('a token store that fails: calls succeed, one warning, and the token is never logged', async () => {
    const sim = createSimulator();
    const { lines, logger } = recordingLogger();
    const momo = sim.client({ tokenStore: brokenStore, logger });
    const balances = await Promise.all(
      Array.from({ length: 20 }, () => momo.disbursement.getBalance()),
    );
    expect(balances).toHaveLength(20);
    await momo.collection.getBalance(); // another cold key: the outage is already reported
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'shared state unavailable (token store): continuing in memory',
    ]);
    const token = (await momo.disbursement.getAccessToken()).accessToken;
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(sim.requests.filter((r) => r.path === '/disbursement/token/')).toHaveLength(1);
  });

  it('a token store that answers again is used again', async () => {
    const sim = createSimulator();
    const stored = new Map<string, StoredToken>();
    let down = true;
    const store: TokenStore = {
      get: (key) => (down ? Promise.reject(refused()) : stored.get(key)),
      set: (key, token) => (down ? Promise.reject(refused()) : void stored.set(key, token)),
      delete: (key) => void stored.delete(key),
    };
    const { lines, logger } = recordingLogger();
    await sim.client({ tokenStore: store, logger }).disbursement.getBalance();
    down = false;
    await sim.client({ tokenStore: store, logger }).disbursement.getBalance(); // stores it now
    await sim.client({ tokenStore: store }).disbursement.getBalance(); // reads it
    expect(sim.requests.filter((r) => r.path === '/disbursement/token/')).toHaveLength(2);
    expect(stored.size).toBe(1);
    expect(lines.map((l) => l.level)).toEqual(['warn']); // only the first client saw it down
  });
});
