import type { CallStart, Telemetry } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();

/** A telemetry that writes down what the core tells it, as a tracing integration would see it. */
function recordingTelemetry() {
  const events: string[] = [];
  const starts: CallStart[] = [];
  const outcome = (o: { status?: number | undefined; error?: unknown }) =>
    o.error === undefined ? `status ${o.status}` : `error ${(o.error as Error).name} ${o.status}`;
  const telemetry: Telemetry = {
    call(start) {
      starts.push(start);
      events.push(`call ${start.operation}`);
      return {
        attempt(n) {
          events.push(`  attempt ${n}`);
          return { end: (o) => events.push(`  attempt ${n} end: ${outcome(o)}`) };
        },
        end: (o) => events.push(`end ${start.operation}: ${outcome(o)}`),
      };
    },
    wait: () => ({ lookup: () => {}, end: () => {} }),
    callback: () => ({ end: () => {} }),
  };
  return { telemetry, events, starts };
}

describe('the telemetry port, wired into every call', () => {
  it('tells one call with its attempts (a retried 500), the token request included', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let deposits = 0;
      service.server.use(
        tokenHandler(),
        http.post(`${BASE}/disbursement/v1_0/deposit`, () =>
          ++deposits === 1
            ? HttpResponse.json({ code: 'INTERNAL_PROCESSING_ERROR' }, { status: 500 })
            : new HttpResponse(null, { status: 202 }),
        ),
      );
      const { telemetry, events, starts } = recordingTelemetry();
      const accepted = makeClient({ telemetry }).disbursement.deposit(transferBody);
      await vi.advanceTimersByTimeAsync(2_000);
      const { referenceId } = await accepted;
      expect(events).toEqual([
        'call disbursement.deposit',
        '  attempt 1', // its authorization is part of it: the token request runs inside
        'call disbursement.getAccessToken',
        '  attempt 1',
        '  attempt 1 end: status 200',
        'end disbursement.getAccessToken: status 200',
        '  attempt 1 end: status 500',
        '  attempt 2',
        '  attempt 2 end: status 202',
        'end disbursement.deposit: status 202',
      ]);
      expect(starts[0]).toEqual({
        operation: 'disbursement.deposit',
        method: 'POST',
        pathTemplate: '/disbursement/v1_0/deposit',
        url: `${BASE}/disbursement/v1_0/deposit`,
        referenceId,
        wait: undefined,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('fills only {referenceId} in the URL: any other parameter (an MSISDN) stays a {name}', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
        HttpResponse.json({ status: 'PENDING' }),
      ),
      http.get(`${BASE}/disbursement/v1_0/accountholder/msisdn/:msisdn/basicuserinfo`, () =>
        HttpResponse.json({ given_name: 'A' }),
      ),
    );
    const { telemetry, starts, events } = recordingTelemetry();
    const momo = makeClient({ telemetry });
    const id = crypto.randomUUID();
    await momo.disbursement.getDeposit(id);
    await momo.disbursement.getBasicUserInfo('46733123999');
    const [lookup, token, info] = starts;
    expect(token?.operation).toBe('disbursement.getAccessToken');
    expect(lookup?.url).toBe(`${BASE}/disbursement/v1_0/deposit/${id}`);
    expect(lookup?.pathTemplate).toBe('/disbursement/v1_0/deposit/{referenceId}');
    expect(lookup?.referenceId).toBe(id);
    expect(info?.url).toBe(`${BASE}/disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`);
    expect(JSON.stringify(starts)).not.toContain('46733123999');
    expect(events.filter((e) => e.startsWith('end '))).toHaveLength(3); // lookup, token, user info
  });

  it('ends a failed call with its error, once', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
        HttpResponse.json({ code: 'RESOURCE_NOT_FOUND' }, { status: 404 }),
      ),
    );
    const { telemetry, events } = recordingTelemetry();
    await makeClient({ telemetry })
      .disbursement.getDeposit(crypto.randomUUID())
      .catch(() => undefined);
    expect(events.filter((e) => e.startsWith('end disbursement.getDeposit'))).toEqual([
      'end disbursement.getDeposit: error NotFoundError 404',
    ]);
  });
});
