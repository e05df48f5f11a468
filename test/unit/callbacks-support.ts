import { HttpResponse, http } from 'msw';
import { BASE, makeClient, tokenHandler, useFakeService } from '../support/fake-service';

export const CALLBACKS = 'https://partner.test/momo/callbacks/{referenceId}';
export const DEPOSIT = '/disbursement/v1_0/deposit';

/** The fake service, and a deposit endpoint on it whose tests send callbacks. */
export function useCallbackService() {
  const service = useFakeService();
  /** A deposit endpoint plus a lookup that answers the given statuses in turn (last repeats). */
  function depositService(...statuses: Array<'PENDING' | 'SUCCESSFUL' | 'FAILED'>) {
    let n = 0;
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}${DEPOSIT}`, () => new Response(null, { status: 202 })),
      http.get(`${BASE}${DEPOSIT}/:id`, () => {
        const status = statuses[Math.min(n++, statuses.length - 1)];
        return HttpResponse.json({
          amount: '100',
          currency: 'EUR',
          status,
          ...(status === 'FAILED' ? { reason: { code: 'APPROVAL_REJECTED', message: 'no' } } : {}),
        });
      }),
    );
    return { lookups: () => service.seen.filter((s) => s.method === 'GET').length };
  }
  return { service, depositService };
}

/** A client whose waits would sleep a minute before their first lookup. */
export const slowPolling = () =>
  makeClient({
    callbackUrl: CALLBACKS,
    polling: { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 },
  });

export const callback = (url: string, body: unknown, method = 'PUT') =>
  new Request(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
