import { inspect } from 'node:util';
import type { RequestInfo, ResponseInfo, RetryInfo } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BASE,
  makeClient,
  SECRETS,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();
const DEPOSIT = '/disbursement/v1_0/deposit';

function recordHooks() {
  const events: Array<[string, RequestInfo | ResponseInfo | RetryInfo]> = [];
  const hooks = {
    onRequest: (info: RequestInfo) => void events.push(['request', info]),
    onResponse: (info: ResponseInfo) => void events.push(['response', info]),
    onRetry: (info: RetryInfo) => void events.push(['retry', info]),
  };
  return { events, hooks };
}

describe('hooks', () => {
  it('see every attempt, its answer and its retry, and no secret', async () => {
    let n = 0;
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}${DEPOSIT}`, () => new Response(null, { status: n++ ? 202 : 503 })),
    );
    const { events, hooks } = recordHooks();
    const accepted = await makeClient({ hooks }).disbursement.deposit(transferBody);
    const deposit = events.filter(([, info]) => info.operation === 'disbursement.deposit');
    expect(deposit.map(([kind, info]) => [kind, info.attempt])).toEqual([
      ['request', 1],
      ['response', 1],
      ['retry', 1],
      ['request', 2],
      ['response', 2],
    ]);
    expect(deposit[1]?.[1]).toMatchObject({ status: 503, referenceId: accepted.referenceId });
    expect(deposit[4]?.[1]).toMatchObject({ status: 202, path: DEPOSIT, method: 'POST' });
    const retry = deposit[2]?.[1] as RetryInfo;
    expect(retry.error.name).toBe('ServerError');
    expect(retry.delayMs).toBeGreaterThan(0);
    // The token request is an attempt too, and is observed like any other.
    expect(events.some(([, info]) => info.operation === 'disbursement.getAccessToken')).toBe(true);

    const token = service.seen.find((s) => s.path === DEPOSIT)?.headers.authorization ?? '';
    const text = events.map(([, info]) => `${JSON.stringify(info)}${inspect(info)}`).join('\n');
    for (const secret of [SECRETS.subscriptionKey, SECRETS.apiKey, token.slice(7)]) {
      expect(text).not.toContain(secret);
    }
  });

  it('report an attempt that got no answer with its error, and a throwing hook changes nothing', async () => {
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}${DEPOSIT}`, () => HttpResponse.error()),
    );
    const responses: ResponseInfo[] = [];
    const momo = makeClient({
      maxRetries: 0,
      hooks: {
        onRequest: () => {
          throw new Error('broken hook');
        },
        onResponse: (info) => void responses.push(info),
      },
    });
    const error = await momo.disbursement.deposit(transferBody).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ConnectionError');
    const failed = responses.find((r) => r.operation === 'disbursement.deposit');
    expect(failed?.status).toBeUndefined();
    expect(failed?.error?.name).toBe('ConnectionError');
  });

  it('keep a wait going through a 408 on a lookup (the one transient classification)', async () => {
    let lookups = 0;
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}${DEPOSIT}/:id`, () =>
        ++lookups === 1
          ? new Response(null, { status: 408 })
          : HttpResponse.json({ status: 'SUCCESSFUL' }),
      ),
    );
    const result = await makeClient({ maxRetries: 0 }).disbursement.waitForDeposit(
      crypto.randomUUID(),
    );
    expect(result.status).toBe('SUCCESSFUL');
    expect(lookups).toBe(2);
  });
});
