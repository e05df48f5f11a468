import {
  isAuthenticationError,
  isConnectionError,
  isServerError,
  isUnexpectedResponseError,
  type Journal,
  MomoClient,
  type MomoClientOptions,
  type Telemetry,
} from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferBody } from '../support/fake-service';
import { type Route, startLoopbackService } from '../support/loopback-service';

// Real sockets on loopback, through the SDK's default transport (the Node pool).
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const MAX = 2;

/** A route that runs `failing` for its first `times` requests, then `ok`. */
function failFirst(times: number, failing: Route, ok: Route): Route {
  let n = 0;
  return (req, res, body) => (n++ < times ? failing : ok)(req, res, body);
}

const accept: Route = (_req, res) => {
  res.statusCode = 202;
  res.end();
};
const json =
  (status: number, body: unknown): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const goodToken = json(200, { access_token: 'loopback-token-0123456789', expires_in: 3600 });

async function client(routes: Record<string, Route>, options: Partial<MomoClientOptions> = {}) {
  service = await startLoopbackService(routes);
  return new MomoClient({
    ...service.options,
    maxConcurrency: MAX,
    maxRetries: 0,
    // A leaked slot would hold the calls below in the queue until this passes.
    timeoutMs: 2_000,
    ...options,
  });
}

/** MAX calls at once, each failing at the step under test; every one must fail. */
async function failingBurst(call: () => Promise<unknown>) {
  const outcomes = await Promise.allSettled(Array.from({ length: MAX }, call));
  return outcomes.map((o) => (o.status === 'rejected' ? o.reason : 'resolved'));
}

/** Then more calls than there are slots: all complete only if every slot came back. */
async function everySlotFree(momo: MomoClient) {
  const accepted = await Promise.all(
    Array.from({ length: MAX * 2 }, () => momo.disbursement.deposit(transferBody)),
  );
  expect(accepted).toHaveLength(MAX * 2);
}

describe('the in-flight slot comes back on every path', () => {
  it('after a journal that throws on record (the call goes on with the in-memory fallback)', async () => {
    const failing: Journal = {
      record: () => Promise.reject(new Error('journal down')),
      finish: () => Promise.reject(new Error('journal down')),
      get: () => Promise.resolve(undefined),
      pending: () => Promise.resolve([]),
    };
    const momo = await client({}, { journal: failing });
    const outcomes = await failingBurst(() => momo.disbursement.deposit(transferBody));
    expect(outcomes).toEqual(['resolved', 'resolved']);
    await everySlotFree(momo);
  });

  it('after the token request fails while the calls wait for it (authorize)', async () => {
    const momo = await client({
      'POST /disbursement/token/': failFirst(1, json(500, { error: 'down' }), goodToken),
    });
    const outcomes = await failingBurst(() => momo.disbursement.deposit(transferBody));
    expect(outcomes.every(isServerError)).toBe(true);
    await everySlotFree(momo);
  });

  it('after the token is refused (authorize: a 401 on the token request)', async () => {
    const momo = await client({
      'POST /disbursement/token/': failFirst(1, json(401, { error: 'invalid_client' }), goodToken),
    });
    const outcomes = await failingBurst(() => momo.disbursement.deposit(transferBody));
    expect(outcomes.every(isAuthenticationError)).toBe(true);
    await everySlotFree(momo);
  });

  it('after the exchange fails (send: the connection is reset)', async () => {
    const reset: Route = (req) => req.socket.destroy();
    const momo = await client({ 'POST /disbursement/v1_0/deposit': failFirst(MAX, reset, accept) });
    const outcomes = await failingBurst(() => momo.disbursement.deposit(transferBody));
    expect(outcomes.every(isConnectionError)).toBe(true);
    await everySlotFree(momo);
  });

  it('after an answer that cannot be read (interpret: a malformed lookup result)', async () => {
    const momo = await client({ 'GET *': json(200, { status: 42, amount: { no: 'shape' } }) });
    const outcomes = await failingBurst(() => momo.disbursement.getDeposit(crypto.randomUUID()));
    expect(outcomes.every(isUnexpectedResponseError)).toBe(true);
    await everySlotFree(momo);
  });

  it('after a throw as an attempt begins, before its slot is taken (a telemetry that throws)', async () => {
    let broken = MAX;
    const telemetry: Telemetry = {
      call: () => ({
        attempt: () => {
          if (broken-- > 0) throw new Error('tracer broke');
          return { end: () => {} };
        },
        end: () => {},
      }),
      wait: () => ({ lookup: () => {}, end: () => {} }),
      callback: () => ({ end: () => {} }),
    };
    const momo = await client({}, { telemetry });
    const outcomes = await failingBurst(() => momo.disbursement.deposit(transferBody));
    expect(outcomes.map((o) => (o as Error).message)).toEqual(['tracer broke', 'tracer broke']);
    await everySlotFree(momo);
  });

  it('after the caller aborts while queued behind the limit, and while in flight', async () => {
    const momo = await client({
      'POST /disbursement/v1_0/deposit': failFirst(MAX, () => {}, accept), // never answered
    });
    const controller = new AbortController();
    const calls = Array.from({ length: MAX + 2 }, () =>
      momo.disbursement.deposit(transferBody, { signal: controller.signal }).catch((e) => e),
    );
    const deposits = () => service?.seen.filter((s) => s.path.endsWith('/deposit')) ?? [];
    await vi.waitFor(() => expect(deposits()).toHaveLength(MAX), { timeout: 10_000 }); // 2 queued
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    expect(await Promise.all(calls)).toEqual(Array(MAX + 2).fill(reason));
    await everySlotFree(momo);
  });
});

describe('a 401 on a bearer token', () => {
  it('drops the token and replays the call once with a new one', async () => {
    let tokens = 0;
    const momo = await client({
      'POST /disbursement/token/': (_req, res) => {
        tokens++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `token-number-${tokens}`, expires_in: 3600 }));
      },
      'POST /disbursement/v1_0/deposit': failFirst(1, json(401, { error: 'expired' }), accept),
    });
    const accepted = await momo.disbursement.deposit(transferBody);
    const deposits = service?.seen.filter((s) => s.path.endsWith('/deposit')) ?? [];
    expect(deposits.map((s) => s.headers.authorization)).toEqual([
      'Bearer token-number-1',
      'Bearer token-number-2',
    ]);
    expect(deposits.map((s) => s.headers['x-reference-id'])).toEqual([
      accepted.referenceId,
      accepted.referenceId,
    ]);
  });

  it('replays only once: a second 401 is the AuthenticationError, and the slot comes back', async () => {
    const momo = await client({
      'POST /disbursement/v1_0/deposit': failFirst(2, json(401, { error: 'refused' }), accept),
    });
    const error = await momo.disbursement.deposit(transferBody).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(service?.seen.filter((s) => s.path.endsWith('/deposit'))).toHaveLength(2);
    expect(service?.seen.filter((s) => s.path.endsWith('/token/'))).toHaveLength(2);
    await everySlotFree(momo);
  });
});

describe('a successful answer carries its request id', () => {
  it('on Accepted and on a lookup result, through the Node pool (loopback)', async () => {
    const momo = await client({
      'POST /disbursement/v1_0/deposit': (_req, res) => {
        res.writeHead(202, { 'Request-Id': 'req-accept-3' });
        res.end();
      },
      'GET *': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-lookup-4' });
        res.end(JSON.stringify({ status: 'PENDING' }));
      },
    });
    const accepted = await momo.disbursement.deposit(transferBody);
    expect(accepted.requestId).toBe('req-accept-3');
    expect((await momo.disbursement.getDeposit(accepted.referenceId)).requestId).toBe(
      'req-lookup-4',
    );
  });
});
