import {
  isConflictError,
  isGoneError,
  isNotFoundError,
  isRateLimitError,
  isValidationError,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, tokenHandler, useFakeService } from '../support/fake-service';

const service = useFakeService();
const ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const PATH = `/collection/v1_0/requesttopay/${ID}/deliverynotification`;

function notificationService(...answers: Array<() => Response>) {
  let n = 0;
  service.server.use(
    tokenHandler('collection'),
    http.post(`${BASE}${PATH}`, () =>
      (answers[n++] ?? (() => new Response(null, { status: 200 })))(),
    ),
  );
  return () => service.seen.filter((s) => s.path === PATH);
}

const code = (status: number, c: string) => () =>
  HttpResponse.json({ code: c, message: c }, { status });

describe('collection.sendDeliveryNotification (4.14)', () => {
  it('POSTs the message with the Language header and resolves enqueued on 200', async () => {
    const sent = notificationService();
    const result = await makeClient().collection.sendDeliveryNotification(
      ID,
      'Your parcel is on its way',
      {
        language: 'sw',
      },
    );
    await service.settled();
    const [request] = sent();
    expect(request?.method).toBe('POST');
    expect(request?.headers.language).toBe('sw');
    expect(request?.headers.authorization).toMatch(/^Bearer token-/);
    expect(request?.headers['x-target-environment']).toBe('sandbox');
    expect(request?.headers['x-reference-id']).toBeUndefined();
    expect(JSON.parse(request?.body ?? '')).toEqual({
      notificationMessage: 'Your parcel is on its way',
    });
    expect(result).toEqual({ referenceId: ID, outcome: 'enqueued' });
  });

  it('omits Language when none is given; a caller header cannot set it', async () => {
    const sent = notificationService();
    await makeClient().collection.sendDeliveryNotification(ID, 'Hi', {
      headers: { Language: 'xx-forged' },
    });
    await service.settled();
    expect(sent()[0]?.headers.language).toBeUndefined();
  });

  it.each([
    [404, 'RESOURCE_NOT_FOUND', isNotFoundError],
    [409, 'TRANSACTION_NOT_COMPLETED', isConflictError],
    [410, 'EXPIRED', isGoneError],
    [429, 'NOT_ALLOWED', isRateLimitError],
  ])('a first-attempt %i is a typed error, not retried', async (status, c, guard) => {
    const sent = notificationService(code(status, c));
    const error = await makeClient()
      .collection.sendDeliveryNotification(ID, 'Hi')
      .catch((e: unknown) => e);
    expect(guard(error)).toBe(true);
    expect(error).toMatchObject({ status, operation: 'collection.sendDeliveryNotification' });
    expect(sent()).toHaveLength(1);
  });

  it('a 429 after an ambiguous first attempt means it was delivered', async () => {
    const sent = notificationService(() => HttpResponse.error(), code(429, 'NOT_ALLOWED'));
    const result = await makeClient().collection.sendDeliveryNotification(ID, 'Hi');
    expect(result).toEqual({ referenceId: ID, outcome: 'already-delivered' });
    expect(sent()).toHaveLength(2);
  });

  it('refuses a bad language, an empty or too long message, and a bad id, with nothing sent', async () => {
    notificationService();
    const momo = makeClient();
    const cases: Array<[Promise<unknown>, string]> = [
      [
        momo.collection.sendDeliveryNotification(ID, 'Hi', { language: 'english' }),
        'options.language',
      ],
      [momo.collection.sendDeliveryNotification(ID, ''), 'notificationMessage'],
      [momo.collection.sendDeliveryNotification(ID, 'x'.repeat(161)), 'notificationMessage'],
      [momo.collection.sendDeliveryNotification('not-a-uuid', 'Hi'), 'referenceId'],
    ];
    for (const [call, field] of cases) {
      const error = await call.catch((e: unknown) => e);
      expect(isValidationError(error), field).toBe(true);
      expect(error).toMatchObject({ field });
    }
    expect(service.seen).toHaveLength(0);
  });
});
