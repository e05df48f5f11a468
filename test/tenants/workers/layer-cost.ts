/**
 * The tenant layer's cost per call (bench/tenants.mjs): in one process, sequential balance
 * lookups through a bare MomoClient and through `(await tenants.client(id))` on every call,
 * both on the simulator's in-memory fetch (no network), rounds alternated; per round the
 * ratio of the two mean times per call.
 */
import { MomoClient } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { serveParent } from '../../support/worker';

serveParent({
  async measure(input: { rounds: number; calls: number }) {
    const sim = createSimulator();
    const { baseUrl, targetEnvironment, subscriptionKey, apiUser } = sim.credentials;
    const credentials = { baseUrl, targetEnvironment, subscriptionKey, apiUser: { ...apiUser } };
    const bare = new MomoClient({ ...credentials, fetch: sim.fetch });
    const tenants = new Tenants({
      resolve: () => credentials,
      client: { fetch: sim.fetch },
    });
    const arms = {
      bare: () => bare.disbursement.getBalance(),
      tenants: async () => (await tenants.client('merchant-42')).disbursement.getBalance(),
    };
    await arms.bare();
    await arms.tenants();
    const ratios: number[] = [];
    const perCall = { bare: [] as number[], tenants: [] as number[] };
    for (let round = 0; round < input.rounds; round++) {
      const order =
        round % 2 === 0 ? (['bare', 'tenants'] as const) : (['tenants', 'bare'] as const);
      const took: Record<string, number> = {};
      for (const arm of order) {
        const started = performance.now();
        for (let i = 0; i < input.calls; i++) await arms[arm]();
        took[arm] = (performance.now() - started) / input.calls;
      }
      if (round === 0) continue; // warm-up
      perCall.bare.push(took.bare as number);
      perCall.tenants.push(took.tenants as number);
      ratios.push((took.tenants as number) / (took.bare as number));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return {
      ratio: median(ratios),
      bareMs: median(perCall.bare),
      tenantsMs: median(perCall.tenants),
      rounds: ratios.length,
      calls: input.calls,
    };
  },
  async close() {
    setImmediate(() => process.exit(0));
    return {};
  },
});
