import { randomUUID } from 'node:crypto';
import {
  isConnectionError,
  isMomoError,
  isRateLimitError,
  MomoClient,
  type RetryInfo,
} from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackService } from '../support/loopback-service';

// A cold token whose request fails, under a creating call: real HTTP on loopback.

const transferBody = {
  amount: '5',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
} as const;
const TOKEN = '/disbursement/token/';
const DEPOSIT = '/disbursement/v1_0/deposit';

let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service whose token endpoint drops every connection. */
async function tokenEndpointDown() {
  service = await startLoopbackService({
    [`POST ${TOKEN}`]: (_req, res) => void res.socket?.destroy(),
  });
  const requests = (path: string) => service?.seen.filter((s) => s.path === path).length;
  return { service, requests };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('a call whose token request fails', () => {
  it('fails as a ConnectionError of the call: its operation, its referenceId, the token failure as cause', async () => {
    const { service, requests } = await tokenEndpointDown();
    const retries: RetryInfo[] = [];
    const momo = new MomoClient({ ...service.options, hooks: { onRetry: (i) => retries.push(i) } });
    const referenceId = randomUUID();
    const error = await failure(momo.disbursement.deposit(transferBody, { referenceId }));

    expect(isConnectionError(error)).toBe(true);
    if (!isConnectionError(error)) return;
    expect(error.operation).toBe('disbursement.deposit');
    expect(error.referenceId).toBe(referenceId); // the README's "look up" has its id
    expect(error.message).toMatch(
      new RegExp(
        `^disbursement\\.deposit: its access token request failed \\(attempt 3, referenceId ${referenceId}\\): disbursement\\.getAccessToken: no response from 127\\.0\\.0\\.1:\\d+`,
      ),
    );
    expect(isConnectionError(error.cause)).toBe(true);
    expect(isMomoError(error.cause) && error.cause.operation).toBe('disbursement.getAccessToken');
    expect(error.toJSON()).toMatchObject({ operation: 'disbursement.deposit', referenceId });

    // One retry budget: maxRetries (2) + 1 attempts of the call, one token request each
    // (it used to be 3 token attempts inside each of 3 call attempts: 9).
    expect(requests(TOKEN)).toBe(3);
    expect(service.stats.connections).toBe(3);
    expect(requests(DEPOSIT)).toBe(0);
    expect(retries.map((r) => [r.operation, r.attempt, r.referenceId])).toEqual([
      ['disbursement.deposit', 1, referenceId],
      ['disbursement.deposit', 2, referenceId],
    ]);
  });

  it('maxRetries: 0 makes one token request; a lookup gets its own operation too', async () => {
    const { service, requests } = await tokenEndpointDown();
    const momo = new MomoClient({ ...service.options, maxRetries: 0 });
    const created = await failure(momo.disbursement.deposit(transferBody));
    expect(requests(TOKEN)).toBe(1);
    expect(created).toMatchObject({ operation: 'disbursement.deposit' });
    expect((created as { referenceId?: string }).referenceId).toMatch(/^[0-9a-f-]{36}$/);
    const id = randomUUID();
    const lookup = await failure(momo.disbursement.getDeposit(id));
    expect(isConnectionError(lookup)).toBe(true);
    expect(lookup).toMatchObject({ operation: 'disbursement.getDeposit' });
    expect(requests(TOKEN)).toBe(2);
  });

  it("keeps the token failure's kind and fields: a 429 is a RateLimitError of the call, its Retry-After honoured", async () => {
    let tokens = 0;
    service = await startLoopbackService({
      [`POST ${TOKEN}`]: (_req, res) => {
        if (tokens++ > 0) {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ access_token: 'loopback-token-0123456789', expires_in: 3600 }));
          return;
        }
        res.statusCode = 429;
        res.setHeader('retry-after', '0');
        res.end();
      },
    });
    const retries: RetryInfo[] = [];
    const momo = new MomoClient({ ...service.options, hooks: { onRetry: (i) => retries.push(i) } });
    const accepted = await momo.disbursement.deposit(transferBody);
    expect(tokens).toBe(2);
    const [retry] = retries;
    expect(retry?.delayMs).toBe(0); // the token answer's Retry-After
    expect(isRateLimitError(retry?.error)).toBe(true);
    expect(retry?.error).toMatchObject({
      status: 429,
      operation: 'disbursement.deposit',
      referenceId: accepted.referenceId,
    });
  });
});
