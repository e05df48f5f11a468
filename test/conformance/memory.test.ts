/**
 * The exported conformance suites against the SDK's in-memory stores, and against
 * broken stores: each suite must fail the case that names what the store broke (and
 * only cases that follow from it), so a partner's broken DynamoDB store is caught too.
 */
import {
  type BatchHandle,
  type BatchStore,
  InMemoryJournal,
  isValidationError,
  type Journal,
  type ReleaseLock,
  type StoredToken,
  type TokenStore,
  type ValidationError,
} from 'momo-partner-sdk';
import { memoryBatchStore } from 'momo-partner-sdk/batches';
import {
  assertConforms,
  type ConformanceReport,
  checkBatchStore,
  checkJournal,
  checkTokenStore,
  journalCases,
} from 'momo-partner-sdk/testing';
import { describe, expect, it, vi } from 'vitest';
import { fakeDate, itConforms } from '../support/conformance';

/** A token store a partner might write: a Map, tokens kept until their expiry, a lock with a ttl. */
class MapTokenStore implements TokenStore {
  readonly tokens = new Map<string, StoredToken>();
  readonly locks = new Map<string, { holder: symbol; until: number }>();
  get(key: string) {
    const token = this.tokens.get(key);
    return token && token.expiresAt > Date.now() ? { ...token } : undefined;
  }
  set(key: string, token: StoredToken) {
    if (token.expiresAt > Date.now()) this.tokens.set(key, { ...token });
  }
  delete(key: string, accessToken?: string) {
    if (accessToken === undefined || this.tokens.get(key)?.accessToken === accessToken) {
      this.tokens.delete(key);
    }
  }
  async lock(key: string, ttlMs: number): Promise<ReleaseLock | undefined> {
    const held = this.locks.get(key);
    if (held && held.until > Date.now()) return undefined;
    const holder = Symbol(key);
    this.locks.set(key, { holder, until: Date.now() + ttlMs });
    return async () => {
      if (this.locks.get(key)?.holder === holder) this.locks.delete(key);
    };
  }
}

const failedCases = (report: ConformanceReport) => report.failed.map((f) => f.case);

describe('journal conformance: InMemoryJournal', () => {
  itConforms(journalCases(() => new InMemoryJournal()));
});

describe('the conformance checks, as a partner calls them', () => {
  const { pass } = fakeDate();

  it('resolve with every case passed for a conforming store', async () => {
    const report = await checkBatchStore(() => memoryBatchStore(), { pass });
    expect(report).toMatchObject({ suite: 'batch store', ok: true, failed: [], skipped: [] });
    expect(report.passed).toContain('fences off the writes of an owner whose lease was taken over');
    expect(assertConforms(report)).toBe(report);
    const tokens = await checkTokenStore(() => new MapTokenStore(), { pass });
    expect(tokens.failed).toEqual([]);
    expect(tokens.passed).toHaveLength(8);
  });

  it('skip the lock cases of a token store without lock(), and the cases named in skip', async () => {
    const store = (): TokenStore => {
      const inner = new MapTokenStore(); // lock() is optional in the contract
      return {
        get: (k) => inner.get(k),
        set: (k, t) => inner.set(k, t),
        delete: (k, a) => inner.delete(k, a),
      };
    };
    const skip = ['gives no token past its expiresAt'];
    const report = await checkTokenStore(store, { pass, skip });
    expect(report.ok).toBe(true);
    expect(report.skipped).toHaveLength(4);
    expect(report.skipped).toContain('gives no token past its expiresAt');
    expect(report.passed).toHaveLength(4);
  });

  it('fail a batch store that ignores the fencing token: the fencing cases, each with what it found', async () => {
    // Every write goes through under the key's current claim, whatever token it carries.
    const unfenced = (): BatchStore => {
      const inner = memoryBatchStore();
      return {
        async open(id) {
          const batch = await inner.open(id);
          const current = new Map<string, string>();
          const handle: BatchHandle = {
            id: batch.id,
            records: () => batch.records(),
            get: (key) => batch.get(key),
            close: () => batch.close(),
            async claim(key, owner, leaseMs) {
              const token = await batch.claim(key, owner, leaseMs);
              if (token) current.set(key, token);
              return token;
            },
            release: (key) => batch.release(key, current.get(key) as string),
            recordIntent: (intent) => batch.recordIntent(intent, current.get(intent.key) ?? ''),
            recordOutcome: (key, outcome) =>
              batch.recordOutcome(key, outcome, current.get(key) as string),
          };
          return handle;
        },
      };
    };
    const report = await checkBatchStore(unfenced, { pass });
    expect(failedCases(report).sort()).toEqual([
      'fences off the writes of an owner whose lease was taken over',
      'frees a released claim for another owner; releasing with a stale token does nothing',
      'renews a claim for its owner with a new token; the old one is fenced',
      "runs an outcome's settled hook in its write (a throw rolls it back), or keeps the delivered: false mark",
    ]);
    const settled = report.failed.find((f) => f.case.startsWith("runs an outcome's settled hook"));
    expect(String(settled?.error)).toMatch(/a fenced write: expected false, got true/);
    expect(String(report.failed[0]?.error)).toMatch(/ConformanceError: .*expected false, got true/);
    expect(() => assertConforms(report)).toThrow(AggregateError);
    expect(() => assertConforms(report)).toThrow(
      /batch store: 4 of 15 cases failed\n- fences off the writes of an owner whose lease was taken over: a stale outcome: expected false, got true/,
    );
  });

  it('fail a batch store whose leases never lapse: the lease cases', async () => {
    const leaseless = (): BatchStore => {
      const inner = memoryBatchStore();
      return {
        async open(id) {
          const batch = await inner.open(id);
          return {
            id: batch.id,
            records: () => batch.records(),
            get: (key) => batch.get(key),
            close: () => batch.close(),
            claim: (key, owner) => batch.claim(key, owner, 3_600_000), // whatever was asked
            release: (key, token) => batch.release(key, token),
            recordIntent: (intent, token) => batch.recordIntent(intent, token),
            recordOutcome: (key, outcome, token) => batch.recordOutcome(key, outcome, token),
          };
        },
      };
    };
    expect(failedCases(await checkBatchStore(leaseless, { pass })).sort()).toEqual([
      'fences off the writes of an owner whose lease was taken over',
      "keeps a renewed claim past its first lease: another owner waits for the renewal's",
      "refuses a claim while another owner's lease runs, grants it once the lease ran out",
    ]);
  });

  it('fail a batch store whose renew() renews what it was given, whatever its token', async () => {
    // The memory store as it is, but for a renew() that checks nothing.
    const careless = (): BatchStore => {
      const inner = memoryBatchStore();
      return { open: (id) => inner.open(id).then(withCarelessRenew) };
    };
    expect(failedCases(await checkBatchStore(careless, { pass }))).toEqual([
      'renews many claims in one call (renew, optional): the live ones, their tokens unchanged',
    ]);
  });

  it('fail a batch store that runs the settled hook after its write, not in a transaction', async () => {
    const afterTheWrite = (): BatchStore => {
      const inner = memoryBatchStore();
      return {
        async open(id) {
          const batch = await inner.open(id);
          return {
            id: batch.id,
            records: () => batch.records(),
            get: (key) => batch.get(key),
            close: () => batch.close(),
            claim: (key, owner, leaseMs) => batch.claim(key, owner, leaseMs),
            release: (key, token) => batch.release(key, token),
            recordIntent: (intent, token) => batch.recordIntent(intent, token),
            async recordOutcome(key, outcome, token, settled) {
              const { delivered: _, ...kept } = outcome; // "it runs the hook": no mark
              const written = await batch.recordOutcome(key, kept, token);
              if (written) await settled?.(undefined); // a throw leaves the write in place
              return written;
            },
          };
        },
      };
    };
    const report = await checkBatchStore(afterTheWrite, { pass });
    expect(report.failed.map((f) => [f.case, String(f.error)])).toEqual([
      [
        "runs an outcome's settled hook in its write (a throw rolls it back), or keeps the delivered: false mark",
        'ConformanceError: the write rolled back: expected "SUCCESSFUL", got "FAILED"',
      ],
    ]);
  });

  it('fail a journal whose finish() overwrites the first outcome, and one that re-records a pending id', async () => {
    class LastOutcomeWins extends InMemoryJournal {
      override async finish(referenceId: string, outcome: 'SUCCESSFUL', finishedAt: number) {
        const entry = await this.get(referenceId);
        if (entry?.outcome) {
          this.drain();
          await super.record(entry);
        }
        await super.finish(referenceId, outcome, finishedAt);
      }
    }
    expect(failedCases(await checkJournal(() => new LastOutcomeWins()))).toEqual([
      'keeps the first outcome of a finished id',
    ]);
    const lastRecordWins = (): Journal => {
      const inner = new InMemoryJournal();
      return {
        get: (id) => inner.get(id),
        pending: () => inner.pending(),
        finish: (id, outcome, at) => inner.finish(id, outcome, at),
        async record(entry) {
          // Drops what it held under the id (pending or finished), then records anew.
          const others = inner.drain().filter((e) => e.referenceId !== entry.referenceId);
          for (const e of others) await inner.record(e);
          await inner.record(entry);
        },
      };
    };
    expect(failedCases(await checkJournal(lastRecordWins))).toEqual([
      'keeps the first record of an id already pending',
    ]);
  });

  it('fail a token store whose delete ignores the access token, and whose lock never lapses', async () => {
    class Careless extends MapTokenStore {
      override delete(key: string) {
        this.tokens.delete(key);
      }
      override async lock(key: string, _ttlMs: number) {
        return super.lock(key, 3_600_000);
      }
    }
    expect(failedCases(await checkTokenStore(() => new Careless(), { pass }))).toEqual([
      'drops a key; with an access token, only while it still holds that token',
      "lock: a dead holder's lock lapses after its ttl; its late release frees nothing",
    ]);
  });

  it('refuse bad options before running anything, naming them', async () => {
    const refused = await checkBatchStore(() => memoryBatchStore(), { leaseMs: 0 }).catch(
      (error: unknown) => error,
    );
    expect(isValidationError(refused)).toBe(true);
    expect((refused as ValidationError).issues.map((i) => i.path)).toEqual(['leaseMs']);
    await expect(checkJournal('journal' as never)).rejects.toThrow(/make/);
  });

  it('run without fake timers: pass() defaults to waiting real time', async () => {
    vi.useRealTimers();
    const started = performance.now();
    const report = await checkTokenStore(() => new MapTokenStore(), { leaseMs: 50 });
    expect(report.failed).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100); // two waits of 51 ms
  });
});

/** A batch handle whose renew() renews whatever it is given (its other methods the handle's). */
function withCarelessRenew(batch: BatchHandle): BatchHandle {
  const renew: BatchHandle['renew'] = async (claims) => new Set(claims.map((c) => c.token));
  return new Proxy(batch, {
    get(target, name) {
      if (name === 'renew') return renew;
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
