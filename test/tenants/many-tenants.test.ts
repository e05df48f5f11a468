/**
 * 10,000 tenants used in turn under `maxLive: 100`, the provider in its own process:
 * at most 100 clients live, sockets and memory bounded (figures printed, bounds loose),
 * and the pending payments of evicted tenants resumed when they are used again.
 */
import { readdirSync } from 'node:fs';
import { InMemoryJournal } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { afterEach, expect, it } from 'vitest';
import { TenantProvider } from '../support/tenant-provider';

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const TENANTS = 10_000;
const MAX_LIVE = 100;
/** Every 50th tenant leaves a payment pending (200 in all); the others read their balance. */
const PAYS = (i: number) => i % 50 === 0;
let provider: TenantProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/**
 * File descriptors open in this process (sockets included, idle keep-alive ones too,
 * which `getActiveResourcesInfo` leaves out as unreferenced): Linux's /proc.
 */
const openHandles = () => readdirSync('/proc/self/fd').length;
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
};

it('10,000 tenants in turn under maxLive 100: bounded, and evicted tenants resume their pending payments', async () => {
  const sim = await TenantProvider.start({ partners: TENANTS, settleMs: 3_600_000 });
  provider = sim;
  const journal = new InMemoryJournal({ maxEntries: 20_000 });
  const tenants = new Tenants({
    resolve: (id) => sim.credentials(id),
    shared: { journal },
    maxLive: MAX_LIVE,
    client: { polling: { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 30_000 } },
  });
  const heapBefore = heapMb();
  const handlesBefore = openHandles();
  let peakLive = 0;
  let peakHandles = 0;
  const pending = new Map<string, string>(); // tenant -> reference id
  for (let start = 0; start < TENANTS; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, async (_, k) => {
        const i = start + k;
        const tenant = `merchant-${i}`;
        const momo = await tenants.client(tenant);
        if (PAYS(i)) {
          const sent = await momo.disbursement.deposit({
            amount: '3',
            currency: 'EUR',
            externalId: `${tenant}/1`,
            payee,
          });
          pending.set(tenant, sent.referenceId);
        } else {
          await momo.disbursement.getBalance();
        }
      }),
    );
    peakLive = Math.max(peakLive, tenants.size);
    peakHandles = Math.max(peakHandles, openHandles());
  }
  const heapAfter = heapMb();
  console.log(
    `10,000 tenants, maxLive ${MAX_LIVE}: live ${tenants.size} (peak ${peakLive}), open handles ${handlesBefore} before, ${openHandles()} now (peak ${peakHandles}), heap ${heapBefore} MB before, ${heapAfter} MB after`,
  );
  expect(peakLive).toBeLessThanOrEqual(MAX_LIVE);
  // 100 live clients, a socket or two each at most: not one per tenant ever used.
  expect(peakHandles - handlesBefore).toBeLessThan(400);
  expect(heapAfter - heapBefore).toBeLessThan(400); // not 10,000 clients' worth kept
  expect(pending.size).toBe(TENANTS / 50);

  // The provider settles them; the evicted tenants, used again, resume their own.
  expect(await sim.settleAll()).toBe(pending.size);
  const ids = [...pending.keys()];
  for (let start = 0; start < ids.length; start += 25) {
    await Promise.all(ids.slice(start, start + 25).map((tenant) => tenants.client(tenant)));
  }
  await expect
    .poll(
      async () => {
        const outcomes = await Promise.all([...pending.values()].map((id) => journal.get(id)));
        return outcomes.filter((entry) => entry?.outcome === 'SUCCESSFUL').length;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(pending.size);
  for (const [tenant, referenceId] of pending) {
    expect((await journal.get(referenceId))?.tenant).toBe(tenant);
  }
  const audit = await sim.audit();
  console.log(
    `${audit.requests} requests at the provider, ${audit.mixed} mixed; token requests ${Object.values(audit.tokenRequests).reduce((a, b) => a + b, 0)}`,
  );
  expect(audit.mixed).toBe(0);
  // One token per tenant: the shared token store served the tenants made again.
  expect(Object.values(audit.tokenRequests).reduce((a, b) => a + b, 0)).toBe(TENANTS);
  tenants.close();
}, 300_000);
