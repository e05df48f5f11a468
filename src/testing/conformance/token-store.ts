import type { StoredToken, TokenStore } from 'momo-partner-sdk';
import {
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
  checkCases,
  NotApplicable,
  type StoreCase,
  storeCases,
} from './cases';
import { holds, LAPSE_MARGIN_MS, same } from './expect';

/** Options of `checkTokenStore(make, options)`. */
export interface TokenStoreConformanceOptions extends ConformanceOptions {
  /** Another store object over the same state (another instance's). Default: the same object. */
  reopen?: ((store: TokenStore) => TokenStore | Promise<TokenStore>) | undefined;
}

/** Keys as the client names them: product, API user, environment. */
const KEY = 'momo:disbursement:3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162:sandbox';
const OTHER = 'momo:collection:3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162:sandbox';
const token = (accessToken: string, lifetimeMs = 3_600_000): StoredToken => {
  const issuedAt = Date.now();
  return { accessToken, tokenType: 'access_token', issuedAt, expiresAt: issuedAt + lifetimeMs };
};

/** The token store contract (`TokenStore`) as cases, each over a fresh store from `make()`. */
export function tokenStoreCases(
  make: () => TokenStore | Promise<TokenStore>,
  options: TokenStoreConformanceOptions = {},
): ConformanceCase[] {
  return storeCases(CASES, make, options);
}

/** Runs every case of the token store contract and resolves with the report. */
export async function checkTokenStore(
  make: () => TokenStore | Promise<TokenStore>,
  options: TokenStoreConformanceOptions = {},
): Promise<ConformanceReport> {
  return checkCases('token store', tokenStoreCases(make, options), options);
}

type Case = StoreCase<TokenStore>;

function lockOf(store: TokenStore): NonNullable<TokenStore['lock']> {
  const lock = store.lock;
  if (typeof lock !== 'function') throw new NotApplicable('the store has no lock()');
  return lock.bind(store);
}

const CASES: Case[] = [
  [
    'stores a token under its key and gives it back whole',
    async (store) => {
      same(await store.get(KEY), undefined, 'get() of a key never set');
      const stored = token('tok-1');
      await store.set(KEY, stored);
      same(await store.get(KEY), stored, 'get() after set()');
      same(await store.get(OTHER), undefined, 'get() of another key');
    },
  ],
  [
    'replaces the token of a key',
    async (store) => {
      await store.set(KEY, token('tok-1'));
      const newer = token('tok-2');
      await store.set(KEY, newer);
      same(await store.get(KEY), newer, 'get() after a second set()');
    },
  ],
  [
    'drops a key; with an access token, only while it still holds that token',
    async (store) => {
      await store.set(KEY, token('old'));
      const newer = token('new');
      await store.set(KEY, newer);
      await store.delete(KEY, 'old'); // refused long ago: the newer token stays
      same(await store.get(KEY), newer, 'get() after delete(key, an older token)');
      await store.delete(KEY, 'new');
      same(await store.get(KEY), undefined, 'get() after delete(key, its token)');
      await store.set(KEY, token('any'));
      await store.set(OTHER, token('kept'));
      await store.delete(KEY);
      same(await store.get(KEY), undefined, 'get() after delete(key)');
      same((await store.get(OTHER))?.accessToken, 'kept', 'another key after delete(key)');
    },
  ],
  [
    'gives no token past its expiresAt',
    async (store, { leaseMs, pass }) => {
      await store.set(KEY, token('dead', -1)); // dead already
      same(await store.get(KEY), undefined, 'get() of a token set after its expiry');
      await store.set(KEY, token('short', leaseMs));
      await pass(leaseMs + LAPSE_MARGIN_MS);
      same(await store.get(KEY), undefined, 'get() once its expiresAt passed');
    },
  ],
  [
    'shares its tokens with the next store over the same state',
    async (store, _ctx, reopen) => {
      const stored = token('tok-1');
      await store.set(KEY, stored);
      const next = await reopen(store);
      same(await next.get(KEY), stored, "the next store's get()");
      await next.delete(KEY, 'tok-1');
      same(await store.get(KEY), undefined, 'get() after the next store deleted it');
    },
  ],
  [
    'lock: one holder at a time; a release frees it',
    async (store, { leaseMs }) => {
      const lock = lockOf(store);
      const first = await lock(KEY, 60_000);
      holds(typeof first === 'function', 'lock() of a free key must give a release function');
      same(await lock(KEY, 60_000), undefined, 'lock() while it is held');
      const other = await lock(OTHER, leaseMs);
      holds(typeof other === 'function', 'lock() of another key must be granted');
      await first?.();
      const second = await lock(KEY, 60_000);
      holds(typeof second === 'function', 'lock() after the release must be granted');
      await second?.();
      await other?.();
    },
  ],
  [
    "lock: a dead holder's lock lapses after its ttl; its late release frees nothing",
    async (store, { leaseMs, pass }) => {
      const lock = lockOf(store);
      const dead = await lock(KEY, leaseMs);
      holds(typeof dead === 'function', 'lock() of a free key must give a release function');
      await pass(leaseMs + LAPSE_MARGIN_MS);
      const next = await lock(KEY, 60_000);
      holds(typeof next === 'function', 'lock() once the ttl ran out must be granted');
      await dead?.(); // the dead holder's late release must not free the new holder's lock
      same(await lock(KEY, 60_000), undefined, "lock() after the old holder's late release");
      await next?.();
    },
  ],
  [
    'lock: many callers at once, one holder',
    async (store) => {
      const lock = lockOf(store);
      const got = await Promise.all(Array.from({ length: 8 }, () => lock(KEY, 60_000)));
      const held = got.filter((release) => typeof release === 'function');
      same(held.length, 1, 'locks granted of 8 asked at once');
      await held[0]?.();
    },
  ],
];
