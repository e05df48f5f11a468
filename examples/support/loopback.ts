import { MomoClient } from 'momo-partner-sdk';
import { createSimulator, type SimulatorOptions } from 'momo-partner-sdk/testing';

/**
 * The simulator served on 127.0.0.1 and a client pointed at it, exactly as a partner
 * would configure one against the real service (plain http is allowed for loopback only).
 */
export async function loopbackSimulator(options: SimulatorOptions = { settleMs: 200 }) {
  const sim = createSimulator(options);
  const server = await sim.listen({ port: 0 });
  const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
  const momo = new MomoClient({
    baseUrl: server.url,
    targetEnvironment,
    subscriptionKey,
    apiUser,
    polling: { initialDelayMs: 100, maxDelayMs: 500, timeoutMs: 10_000 },
  });
  return { sim, server, momo };
}
