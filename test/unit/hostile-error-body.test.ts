import { isConflictError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackService } from '../support/loopback-service';

// Real HTTP on loopback: a hostile (or broken) service answers an error body whose
// "__proto__" key pretends to be the "landed" answer of a retried creating call.

const transferBody = {
  amount: '5',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
} as const;

let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('an error body with a "__proto__" key', () => {
  it('keeps it as a plain own key and does not read a refused retry as landed', async () => {
    let n = 0;
    const hostile = '{"error":"CONFLICTING_STATE","__proto__":{"code":"RESOURCE_ALREADY_EXIST"}}';
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': (_req, res) => {
        if (n++ === 0) {
          res.socket?.destroy(); // the first attempt gets no answer: the call is retried
          return;
        }
        res.statusCode = 409;
        res.setHeader('content-type', 'application/json');
        res.end(hostile);
      },
    });
    const momo = new MomoClient(service.options);
    const error = await momo.disbursement.deposit(transferBody).then(
      () => expect.fail('a 409 CONFLICTING_STATE on the retry is not an acceptance'),
      (e: unknown) => e,
    );
    expect(n).toBe(2);
    expect(isConflictError(error)).toBe(true);
    if (!isConflictError(error)) return;
    expect(error.code).toBe('CONFLICTING_STATE');
    const body = error.body as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual({
      code: 'RESOURCE_ALREADY_EXIST',
    });
    expect((body as { code?: unknown }).code).toBeUndefined();
  });
});
