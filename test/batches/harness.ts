import { MomoClient } from 'momo-partner-sdk';
import type { BatchItem } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** Magic payees of the simulator (docs/simulator.md). */
export const PAYEE = {
  ok: '46733123999',
  rejected: '46733123451', // FAILED: APPROVAL_REJECTED
  notFound: '46733123456', // FAILED: PAYEE_NOT_FOUND; inactive to isAccountHolderActive
  pending: '46733123453', // PENDING until decided
};

/** A payout row, as a partner's CSV would give it. */
export const row = (key: string, payee: string, amount = '10.00'): BatchItem => ({
  key,
  body: {
    amount,
    currency: 'EUR',
    externalId: key,
    payee: { partyIdType: 'MSISDN', partyId: payee },
    payerMessage: 'Salary',
    payeeNote: 'November',
  },
});

export interface Harness {
  sim: Simulator;
  server: ListeningServer;
  /** A client over the simulator's loopback server (the real transport), fast polling. */
  client(overrides?: {
    maxRetries?: number;
    polling?: { initialDelayMs: number; maxDelayMs: number; timeoutMs: number };
  }): MomoClient;
  /** How many transfer lookups (GET /disbursement/v1_0/transfer/{id}) the simulator answered. */
  transferLookups(): number;
  /** The creating calls the simulator received for transfers: their X-Reference-Ids. */
  transferPosts(): string[];
}

/**
 * A simulator served on loopback for the file's tests, reset before each; its operations
 * settle `settleMs` after acceptance.
 */
export function useSimulator(settleMs = 20): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.sim = createSimulator({ settleMs });
    harness.server = await harness.sim.listen();
  });
  beforeEach(() => harness.sim.reset());
  afterAll(() => harness.server.close());
  harness.client = (overrides = {}) =>
    new MomoClient({
      ...harness.sim.credentials,
      baseUrl: harness.server.url,
      polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
      ...overrides,
    });
  harness.transferLookups = () =>
    harness.sim.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/disbursement/v1_0/transfer/'),
    ).length;
  harness.transferPosts = () =>
    harness.sim.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'))
      .map((r) => r.headers['x-reference-id'] as string);
  return harness;
}
