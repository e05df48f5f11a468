import { isNotFoundError, isWaitTimeoutError } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();
const DEPOSIT = `${BASE}/disbursement/v1_0/deposit`;

/** Deposit endpoint accepting everything, and a lookup answering with `answers` in turn (last one repeats). */
function depositWithLookups(...answers: Array<() => Response>) {
  let n = 0;
  service.server.use(
    tokenHandler(),
    http.post(DEPOSIT, () => new Response(null, { status: 202 })),
    http.get(`${DEPOSIT}/:id`, () => {
      const answer = answers[Math.min(n++, answers.length - 1)];
      return answer ? answer() : HttpResponse.json({ status: 'PENDING' });
    }),
  );
}
const pending = () => HttpResponse.json({ status: 'PENDING', amount: 100 });
const successful = () =>
  HttpResponse.json({
    status: 'SUCCESSFUL',
    amount: 100,
    financialTransactionId: 42,
    extra: 'kept',
  });
const lookups = () => service.seen.filter((s) => s.method === 'GET');

describe('wait()', () => {
  it('resolves SUCCESSFUL, reading numbers as strings and keeping unknown fields', async () => {
    depositWithLookups(pending, pending, successful);
    const statuses: string[] = [];
    const result = await makeClient()
      .disbursement.deposit(transferBody)
      .wait({ onStatus: (r) => statuses.push(r.status) });
    expect(result).toMatchObject({
      status: 'SUCCESSFUL',
      amount: '100',
      financialTransactionId: '42',
      unknownFields: { extra: 'kept' },
    });
    expect(result).not.toHaveProperty('extra');
    // onStatus reports each change of status, the final one included, not every lookup.
    expect(statuses).toEqual(['PENDING', 'SUCCESSFUL']);
  });

  it('resolves FAILED with its reason (as an object or a bare string)', async () => {
    depositWithLookups(() =>
      HttpResponse.json({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED', message: 'no' } }),
    );
    const failed = await makeClient().disbursement.deposit(transferBody).wait();
    expect(failed.status).toBe('FAILED');
    expect(failed.status === 'FAILED' && failed.reason.code).toBe('APPROVAL_REJECTED');

    depositWithLookups(() => HttpResponse.json({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' }));
    const bare = await makeClient().disbursement.deposit(transferBody).wait();
    expect(bare.reason).toEqual({ code: 'NOT_ENOUGH_FUNDS' });
  });

  it('throws WaitTimeoutError with the reference id and the last status', async () => {
    depositWithLookups(pending);
    const accepted = await makeClient().disbursement.deposit(transferBody);
    const error = await accepted.wait({ timeoutMs: 100 }).catch((e) => e);
    expect(isWaitTimeoutError(error)).toBe(true);
    expect(error.referenceId).toBe(accepted.referenceId);
    expect(error.lastStatus).toBe('PENDING');
    expect(error.lastResult).toMatchObject({ status: 'PENDING' });
  });

  it('rejects with the abort reason when the signal fires', async () => {
    depositWithLookups(pending);
    const controller = new AbortController();
    const waiting = makeClient()
      .disbursement.deposit(transferBody)
      .wait({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(waiting).rejects.toThrow('user left');
  });

  it('treats 404 just after acceptance as not yet visible, and rides out a 5xx', async () => {
    depositWithLookups(
      () => HttpResponse.json({ code: 'RESOURCE_NOT_FOUND', message: 'x' }, { status: 404 }),
      () => new Response(null, { status: 503 }),
      successful,
    );
    const result = await makeClient({ maxRetries: 0 }).disbursement.deposit(transferBody).wait();
    expect(result.status).toBe('SUCCESSFUL');
    expect(lookups()).toHaveLength(3);
  });

  it('waitFor on an id the service does not know raises NotFoundError', async () => {
    depositWithLookups(() =>
      HttpResponse.json({ code: 'RESOURCE_NOT_FOUND', message: 'x' }, { status: 404 }),
    );
    const error = await makeClient()
      .disbursement.waitForDeposit('3f2b2c1e-7d4a-4b8e-9c1d-2e3f4a5b6c7d')
      .catch((e) => e);
    expect(isNotFoundError(error)).toBe(true);
  });

  it('status() makes one lookup', async () => {
    depositWithLookups(pending);
    const accepted = await makeClient().disbursement.deposit(transferBody);
    expect((await accepted.status()).status).toBe('PENDING');
    expect(lookups()).toHaveLength(1);
    expect(lookups()[0]?.path).toBe(`/disbursement/v1_0/deposit/${accepted.referenceId}`);
  });
});
