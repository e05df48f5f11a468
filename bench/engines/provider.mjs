/**
 * The provider of the engines bench, in its own process: the SDK's simulator on loopback
 * with the caps given (`limits`), so the workers' processes share nothing with it. Counts
 * what it saw of the creating calls and lookups of transfers since `start`.
 */
import { createSimulator } from 'momo-partner-sdk/testing';
import { serve } from './ipc.mjs';

const CREATE = '/disbursement/v1_0/transfer';
let sim;
let server;

serve({
  async start({ settleMs, limits }) {
    sim = createSimulator({ settleMs, limits });
    server = await sim.listen({ port: 0 });
    const { baseUrl: _, ...credentials } = sim.credentials;
    return { ...credentials, baseUrl: server.url };
  },

  /**
   * Creating calls answered and refused by the caps, lookups, transactions held, and how
   * many items (by externalId) the provider created more than once (0: none sent twice).
   */
  async counts() {
    let creates = 0;
    let refused = 0;
    let lookups = 0;
    // When the creating calls the cap let through came (epoch ms): where a run's time went.
    let firstCreateAt = Number.POSITIVE_INFINITY;
    let lastCreateAt = 0;
    const createdAt = [];
    for (const r of sim.requests) {
      if (!r.path.startsWith(CREATE)) continue;
      if (r.method === 'POST') {
        if (r.limited) refused++;
        else {
          creates++;
          createdAt.push(r.at);
          firstCreateAt = Math.min(firstCreateAt, r.at);
          lastCreateAt = Math.max(lastCreateAt, r.at);
        }
      } else if (r.method === 'GET') lookups++;
    }
    const perItem = new Map();
    for (const t of sim.transactions) {
      const key = t.body?.externalId;
      perItem.set(key, (perItem.get(key) ?? 0) + 1);
    }
    const createdTwice = [...perItem.values()].filter((n) => n > 1).length;
    return {
      creates,
      refused,
      lookups,
      transactions: sim.transactions.length,
      createdTwice,
      firstCreateAt,
      lastCreateAt,
      createdAt,
    };
  },

  /** Forgets what it saw (between engines). */
  async reset() {
    sim.reset();
    return {};
  },

  async close() {
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
