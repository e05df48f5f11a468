import { fileURLToPath } from 'node:url';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Instance } from '../redis/support/instances';
import type { AppInput } from './workers/partner-app';

// 1,000 payments settling together, the provider (the simulator on loopback) in this
// process and the partner's app (a client, its callback handler at the default options
// on a loopback server) in another: in one process the burst does not reproduce, since
// sender and receiver take turns on one event loop. The provider does not retry
// callbacks, so each one answered 5xx would be a lost callback.
const APP = fileURLToPath(new URL('./workers/partner-app.ts', import.meta.url));
const PAYMENTS = 1_000;
// A generous bound for a loaded 2-core machine (about 5 s each there): a deadline, never
// a speed claim.
const WITHIN_MS = 25_000;

let http: ListeningServer | undefined;
let app: Instance | undefined;
afterEach(async () => {
  await app?.close();
  await http?.close();
  app = undefined;
  http = undefined;
});

/** Polls `check` every 100 ms until it holds or `WITHIN_MS` have passed. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + WITHIN_MS; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function burst(waits: boolean) {
  const provider: Simulator = createSimulator();
  http = await provider.listen({ port: 0 });
  const { baseUrl: _, ...credentials } = provider.credentials;
  app = await Instance.spawn(APP);
  const input: AppInput = { simulator: { ...credentials, baseUrl: http.url }, waits };
  await app.call('start', input);
  const ids = await app.call<string[]>('create', { count: PAYMENTS });
  expect(ids).toHaveLength(PAYMENTS);

  // The payers approve at once: the provider sends 1,000 callbacks together.
  for (const id of ids) provider.settle(id, 'SUCCESSFUL');
  await eventually(() =>
    provider.callbacks.every((c) => c.status !== undefined || c.error !== undefined),
  );
  const answers = provider.callbacks;
  expect(answers).toHaveLength(PAYMENTS);
  // Every answer by status: 2xx only (a 503 with Retry-After is lost all the same).
  const byStatus: Record<string, number> = {};
  for (const c of answers) {
    const key = c.status === undefined ? `error: ${c.error}` : `${Math.floor(c.status / 100)}xx`;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  expect(byStatus).toEqual({ '2xx': PAYMENTS });

  let ended = { final: 0, waitsEnded: 0, failed: [] as string[] };
  await eventually(async () => {
    ended = await (app as Instance).call('ended', { ids });
    return ended.final === PAYMENTS && (!waits || ended.waitsEnded === PAYMENTS);
  });
  expect(ended).toEqual({ final: PAYMENTS, waitsEnded: waits ? PAYMENTS : 0, failed: [] });

  // Status lookups at the provider: the waits make none before 2 minutes (their
  // polling), so each one is a callback's confirmation.
  const lookups = provider.requests.filter(
    (r) => r.method === 'GET' && r.path.includes('/requesttopay/'),
  );
  expect(lookups.length).toBeLessThanOrEqual(PAYMENTS * 1.01);
}

describe('1,000 payments settling together, callbacks to a receiver at the default options', () => {
  it('with a wait pending on each: every callback answered 2xx, every wait ended, one lookup each', async () => {
    await burst(true);
  }, 90_000);

  it('with no wait (only the journal knows the ids): every callback answered 2xx, every payment final, one lookup each', async () => {
    await burst(false);
  }, 90_000);
});
