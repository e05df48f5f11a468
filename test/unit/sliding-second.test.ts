import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

// Even spacing alone lets N + 1 through in a sliding second: evenly spaced 1000/N apart,
// the (N + 1)th goes exactly 1000 ms after the first. On a fake clock the spacing is exact.
const service = useFakeService();
afterEach(() => {
  vi.useRealTimers();
});

/** The requests to `path` (method and path), by the fake clock's time they reached the service. */
function counted(method: 'get' | 'post', path: string, answer: () => Response) {
  const at: number[] = [];
  service.server.use(
    tokenHandler(),
    http[method](`${BASE}${path}`, () => {
      at.push(Date.now());
      return answer();
    }),
  );
  return at;
}

const N = 5;

describe('a budget of N a second', () => {
  it('lookupRate: N lets the (N + 1)th lookup go only once the first is more than a second old', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const at = counted('get', '/disbursement/v1_0/deposit/:id', () =>
      HttpResponse.json({ amount: '1', currency: 'EUR', status: 'PENDING' }),
    );
    const momo = makeClient({ lookupRate: N });
    const lookups = Array.from({ length: N + 1 }, () =>
      momo.disbursement.getDeposit(crypto.randomUUID()),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(lookups);
    expect(at).toHaveLength(N + 1);
    expect((at[N] as number) - (at[0] as number)).toBeGreaterThan(1_000);
    // Still evenly spaced before that: 1000/N apart.
    expect((at[1] as number) - (at[0] as number)).toBe(1_000 / N);
  });

  it('createRate: N the same for creating calls', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const at = counted(
      'post',
      '/disbursement/v1_0/deposit',
      () => new HttpResponse(null, { status: 202 }),
    );
    const momo = makeClient({ createRate: N });
    const deposits = Array.from({ length: N + 1 }, () => momo.disbursement.deposit(transferBody));
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(deposits);
    expect(at).toHaveLength(N + 1);
    expect((at[N] as number) - (at[0] as number)).toBeGreaterThan(1_000);
  });
});
