/**
 * A year as the school ran it (issue 39's first "must show", DESIGN 10.3), on PostgreSQL
 * and on Redis, the runners in processes of their own (test/support/school-year.ts): fees
 * of 150,000 UGX a month raised to 165,000 from September by `changePlan`, a tenth of the
 * parents short of funds in March, renewals in July, a pause (and a resume), a mandate
 * revoked from the phone, a leaver back under the same key after a lost store, a parent
 * who approves the mandate only after the year ended, runners SIGKILLed on six days, every
 * callback delivered twice. From the PROVIDER's records: no period charged twice, none
 * missed, no charge above the terms its mandate stated (nor one outside a mandate), no
 * mandate left approved once the subscriptions ended; and the finance report's rows agree
 * with the provider's.
 *
 * CI runs 40 pupils x 12 months; SCHOOL_PUPILS=300 runs the issue's size
 * (SCHOOL_REPORT=1 prints the figures).
 */
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createRedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { type ConnectedClient, connectClient } from '../redis/support/clients';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { describeWithPostgres } from '../support/postgres-server';
import {
  cast,
  FEE,
  type HeldTransaction,
  keyOf,
  month,
  msisdnOf,
  RAISED,
  runSchoolYear,
  type SchoolResult,
} from '../support/school-year';

const pupils = Number(process.env.SCHOOL_PUPILS ?? 40);
const report = process.env.SCHOOL_REPORT === '1';
/** Generous: the CI size takes about a minute alone; the machine may be loaded. */
const TIMEOUT_MS = Math.max(420_000, pupils * 6_000);

/** `<identity>:<period>` of every period the school expected to be paid, with its fee. */
function expectedCharges(identities: Map<string, string[]>): Map<string, string> {
  const who = cast(pupils);
  const expected = new Map<string, string>();
  for (let i = 0; i < pupils; i++) {
    const ids = identities.get(keyOf(i)) ?? [];
    if (who.silent.includes(i)) continue; // no mandate approved during the year: nothing charged
    if (who.leaver.includes(i)) {
      // Paid January and February, then left; back from 5 May (its periods 0..7), raised from September.
      for (const p of [0, 1]) expected.set(`${ids[0]}:${p}`, FEE);
      for (let p = 0; p < 8; p++) expected.set(`${ids[1]}:${p}`, p >= 4 ? RAISED : FEE);
      continue;
    }
    for (let p = 0; p < 12; p++) {
      const holiday = [...who.paused, ...who.resumed].includes(i) && (p === 6 || p === 7);
      if (holiday) continue;
      const raised = p >= 8 && !who.refuser.includes(i);
      expected.set(`${ids[0]}:${p}`, raised ? RAISED : FEE);
    }
  }
  return expected;
}

/** The leading "<amount> <currency>" a mandate's message states. */
function stated(message: string | undefined): { amount: number; currency: string } | undefined {
  const match = /^(\d+(?:\.\d+)?) ([A-Z]{3}) /.exec(message ?? '');
  return match ? { amount: Number(match[1]), currency: match[2] as string } : undefined;
}

function expectTheYearHeld(result: SchoolResult): void {
  const charges = result.held.filter((t) => t.operation === 'collection.requestToPay');
  const mandates = result.held.filter((t) => t.operation === 'collection.preApproval');
  if (report) {
    const { held: _, stored: __, report: ___, identities: ____, ...figures } = result;
    const by = (s: string) => charges.filter((c) => c.status === s).length;
    console.log(
      JSON.stringify({
        pupils,
        charges: charges.length,
        paid: by('SUCCESSFUL'),
        failed: by('FAILED'),
        mandates: mandates.length,
        ...figures,
        warnings: figures.warnings.length,
      }),
    );
  }
  // 0 charged twice, 0 missed, none unexpected: from the provider's records.
  const expected = expectedCharges(result.identities);
  const paid = new Map<string, HeldTransaction[]>();
  for (const c of charges.filter((c) => c.status === 'SUCCESSFUL')) {
    paid.set(c.externalId ?? c.referenceId, [
      ...(paid.get(c.externalId ?? c.referenceId) ?? []),
      c,
    ]);
  }
  const twice = [...paid].filter(([, list]) => list.length > 1).map(([id]) => id);
  const missed = [...expected.keys()].filter((id) => !paid.has(id));
  const unexpected = [...paid.keys()].filter((id) => !expected.has(id));
  const wrongFee = [...paid].filter(
    ([id, [c]]) => expected.has(id) && Number(c?.amount) !== Number(expected.get(id)),
  );
  expect({ twice, missed, unexpected, wrongFee }).toEqual({
    twice: [],
    missed: [],
    unexpected: [],
    wrongFee: [],
  });
  expect(paid.size).toBe(expected.size);
  // Short of funds in March: two refused attempts each, then paid (no other refusal).
  const refused = charges.filter((c) => c.status === 'FAILED');
  expect(refused.every((c) => c.reason === 'NOT_ENOUGH_FUNDS')).toBe(true);
  expect(refused.length).toBe(2 * cast(pupils).short.length);
  expect(charges.filter((c) => c.status === 'PENDING')).toEqual([]);
  // 0 above the terms its mandate stated; every charge made under a mandate (no prompt).
  const byPreApproval = new Map(mandates.map((m) => [m.preApprovalId, m]));
  const above = charges.filter((c) => {
    const terms = stated(byPreApproval.get(c.underPreApproval)?.message);
    return !terms || terms.currency !== c.currency || Number(c.amount) > terms.amount;
  });
  expect(above.map((c) => [c.externalId, c.amount, c.underPreApproval])).toEqual([]);
  // 0 mandates left approved once every subscription ended (the late approval included).
  const live = mandates.filter((m) => m.state === 'APPROVED');
  expect(live.map((m) => [m.msisdn, m.message])).toEqual([]);
  const late = mandates.filter((m) => cast(pupils).silent.map(msisdnOf).includes(m.msisdn));
  if (cast(pupils).silent.length > 0) expect(late.some((m) => m.state === 'CANCELLED')).toBe(true);
  // Renewals: pupil 0's mandate (200 days) renewed in July, then the raised fee's mandate.
  const pupil0 = mandates.filter((m) => m.msisdn === msisdnOf(0));
  expect(pupil0.map((m) => stated(m.message)?.amount)).toEqual([150_000, 150_000, 165_000]);
  expect(pupil0[1]?.at).toBeGreaterThanOrEqual(month(6, 10));
  expect(pupil0[1]?.at).toBeLessThan(month(6, 24));
  // The store: every subscription ended, its mandates let go.
  expect(
    result.stored.filter((s) => s.status !== 'ENDED').map((s) => [s.key, s.status, s.reason]),
  ).toEqual([]);
  expect(result.stored).toHaveLength(pupils);
  expectReportAgrees(result, charges);
  expect(result.kills).toBe(6);
  expect(result.deliveries).toBeGreaterThanOrEqual(2 * paid.size);
}

/** The finance report's rows agree with the provider's records. */
function expectReportAgrees(result: SchoolResult, charges: HeldTransaction[]): void {
  const ids = new Set(result.stored.map((s) => s.id));
  const keyOfId = new Map(result.stored.map((s) => [s.id, s.key]));
  const providerPaid = new Map<string, HeldTransaction>();
  for (const c of charges) {
    const [id, period] = (c.externalId ?? '').split(':');
    if (c.status === 'SUCCESSFUL' && ids.has(id))
      providerPaid.set(`${keyOfId.get(id)}/${period}`, c);
  }
  const rows = result.report.periods;
  const paidRows = rows.filter((r) => r.status === 'PAID');
  for (const row of paidRows) {
    const held = providerPaid.get(`${row.key}/${row.period}`);
    expect({
      row: `${row.key}/${row.period}`,
      ref: row.referenceId?.toLowerCase(),
      amount: Number(row.amount),
      currency: row.currency,
    }).toEqual({
      row: `${row.key}/${row.period}`,
      ref: held?.referenceId,
      amount: Number(held?.amount),
      currency: held?.currency,
    });
  }
  expect(paidRows).toHaveLength(providerPaid.size);
  const who = cast(pupils);
  const statusOf = (i: number) =>
    new Set(rows.filter((r) => r.key === keyOf(i)).map((r) => r.status));
  for (const i of [...who.paused, ...who.resumed]) {
    expect(
      rows.filter((r) => r.key === keyOf(i) && r.status === 'SKIPPED').map((r) => r.period),
    ).toEqual([6, 7]);
  }
  for (const i of who.silent) {
    expect(statusOf(i)).toEqual(new Set(['ARREARS']));
    expect(result.report.arrears.find((a) => a.key === keyOf(i))?.periods).toHaveLength(12);
  }
  const others = rows.filter(
    (r) => r.status !== 'PAID' && r.status !== 'SKIPPED' && r.status !== 'ARREARS',
  );
  expect(others.map((r) => [r.key, r.period, r.status])).toEqual([]);
  expect(result.report.invoices).toEqual([]);
  // Periods the report covers: from 5 January 2026 to the year's end.
  expect(rows.every((r) => r.startsAt >= month(0) && r.startsAt < month(12))).toBe(true);
}

describeWithPostgres('a school year on PostgreSQL: 3 runner processes, SIGKILLs', () => {
  const pg15 = usePostgres();

  it(
    `${pupils} pupils x 12 months: each month paid once, within its mandate, the report the provider's`,
    async () => {
      const db = await pg15.freshState();
      const probe = createPostgresState(pg15.newPool(), { schema: db.schema });
      const result = await runSchoolYear({
        pupils,
        store: { kind: 'postgres', config: pg15.server().config, schema: db.schema },
        probe: probe.subscriptionStore,
        lose: async () => {
          await pg15
            .pool()
            .query(`TRUNCATE "${db.schema}".subscriptions, "${db.schema}".subscription_plans`);
        },
        log: report ? (line) => console.error(`[postgres] ${line}`) : undefined,
      });
      expectTheYearHeld(result);
    },
    TIMEOUT_MS,
  );
});

describeWithRedis('a school year on Redis: 3 runner processes, SIGKILLs', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });

  it(
    `${pupils} pupils x 12 months: each month paid once, within its mandate, the report the provider's`,
    async () => {
      const state = createRedisState(redis.client, { prefix: 'school:' });
      try {
        const result = await runSchoolYear({
          pupils,
          store: { kind: 'redis', url: server.url, library: 'node-redis', prefix: 'school:' },
          probe: state.subscriptionStore,
          lose: async () => {
            const client = redis.client as unknown as {
              sendCommand(args: string[]): Promise<unknown>;
            };
            await client.sendCommand(['FLUSHDB']); // this test's own server
          },
          log: report ? (line) => console.error(`[redis] ${line}`) : undefined,
        });
        expectTheYearHeld(result);
      } finally {
        await state.close();
      }
    },
    TIMEOUT_MS,
  );
});
