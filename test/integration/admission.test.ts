import { isTimeoutError, isValidationError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { transferBody } from '../support/fake-service';
import { startLoopbackService } from '../support/loopback-service';
import { mostInWindow } from '../support/sliding-window';

// The admission stage every attempt passes before it is sent: lookupRate for every GET the
// provider counts, createRate for creating calls, maxConcurrency for all. Real timers and
// real sockets on loopback, small budgets over a few seconds; the assertions count requests
// in sliding seconds and never time how fast anything went.
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const N = 5;

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};
const pending = { amount: '1', currency: 'EUR', status: 'PENDING' };
const successful = { amount: '1', currency: 'EUR', status: 'SUCCESSFUL' };

/**
 * A provider counting what reaches it: GETs (status lookups whose first attempt per id is
 * a 500, and whose third is final; account-holder checks; balances) and creating POSTs.
 */
async function provider(holdMs = 0) {
  const gets: number[] = [];
  const creates: number[] = [];
  const lookupsById = new Map<string, number>();
  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    setTimeout(() => json(res, status, body), holdMs);
  service = await startLoopbackService({
    'GET *': (req, res) => {
      gets.push(Date.now());
      const path = req.url ?? '';
      if (path.endsWith('/active')) return answer(res, 200, { result: true });
      if (path.includes('/balance'))
        return answer(res, 200, { availableBalance: '1', currency: 'EUR' });
      const id = path.split('/').pop() as string;
      const n = lookupsById.get(id) ?? 0;
      lookupsById.set(id, n + 1);
      if (n === 0) return answer(res, 500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'again' });
      answer(res, 200, n >= 2 ? successful : pending);
    },
    'POST /disbursement/v1_0/deposit': (_req, res) => {
      creates.push(Date.now());
      setTimeout(() => {
        res.statusCode = 202;
        res.end();
      }, holdMs);
    },
  });
  return { gets, creates, options: service.options };
}

/** A client whose requests' send times are noted by method (the moment each attempt left). */
function client(options: object, extra: object = {}) {
  const sent = { GET: [] as number[], POST: [] as number[] };
  const momo = new MomoClient({
    ...(options as { baseUrl: string; targetEnvironment: string }),
    polling: { initialDelayMs: 20, maxDelayMs: 50, timeoutMs: 20_000 },
    hooks: {
      onRequest: ({ method, path }) => {
        if (!path.endsWith('/token/')) sent[method as 'GET' | 'POST']?.push(Date.now());
      },
    },
    ...extra,
  });
  return { momo, sent };
}

describe('lookupRate: N admits at most N counted GETs in any sliding second', () => {
  it("status lookups, their retries and waits' lookups together", async () => {
    const { gets, creates, options } = await provider();
    const { momo, sent } = client(options, { lookupRate: N });
    const deposits = await Promise.all(
      Array.from({ length: 6 }, () => momo.disbursement.deposit(transferBody)),
    );
    // Each status() is refused once (a 500) and retried: every attempt counts.
    const looked = await Promise.all([
      ...deposits.slice(0, 4).map((d) => d.status()),
      ...deposits.slice(4).map((d) => d.wait()),
    ]);
    expect(looked.map((r) => r.status)).toEqual([
      'PENDING',
      'PENDING',
      'PENDING',
      'PENDING',
      'SUCCESSFUL',
      'SUCCESSFUL',
    ]);
    expect(creates).toHaveLength(6);
    expect(gets).toHaveLength(4 * 2 + 2 * 3);
    // Read where the stage lets each call go: a loaded machine delays some arrivals at the
    // provider and bunches them, which says nothing of the stage.
    expect(mostInWindow(sent.GET)).toBeLessThanOrEqual(N);
  });

  it('account-holder checks and balances share the budget with status lookups', async () => {
    const { gets, options } = await provider();
    const { momo, sent } = client(options, { lookupRate: N, maxRetries: 0 });
    const d = momo.disbursement;
    const ids = Array.from({ length: 4 }, () => crypto.randomUUID());
    const answers = await Promise.all([
      ...ids.map((id) => d.isAccountHolderActive('msisdn', '46733123450').then(() => id)),
      ...ids.map(() => d.getBalance()),
      ...ids.map((id) => d.getDeposit(id).catch(() => 'refused once')),
    ]);
    expect(answers).toHaveLength(12);
    expect(gets).toHaveLength(12);
    expect(mostInWindow(sent.GET)).toBeLessThanOrEqual(N);
  });
});

describe('createRate: N admits at most N creating calls in any sliding second', () => {
  it('a burst of deposits, spread over the seconds', async () => {
    const { creates, options } = await provider();
    const { momo, sent } = client(options, { createRate: N });
    const accepted = await Promise.all(
      Array.from({ length: 12 }, () => momo.disbursement.deposit(transferBody)),
    );
    expect(new Set(accepted.map((a) => a.referenceId)).size).toBe(12);
    expect(creates).toHaveLength(12);
    expect(mostInWindow(sent.POST)).toBeLessThanOrEqual(N);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5'])(
    'refuses createRate %s, naming it, before anything is sent',
    (createRate) => {
      let error: unknown;
      try {
        new MomoClient({
          baseUrl: 'http://127.0.0.1:9',
          targetEnvironment: 'x',
          createRate: createRate as number,
        });
      } catch (e) {
        error = e;
      }
      expect(isValidationError(error)).toBe(true);
      expect((error as { field: string }).field).toBe('createRate');
    },
  );
});

describe('a call queued at the admission stage', () => {
  it('is rejected by its deadline and by its abort signal, and is never sent', async () => {
    const { creates, options } = await provider();
    // One creating call every 2 s: the next share is far past anything below.
    const { momo } = client(options, { createRate: 0.5, maxRetries: 0 });
    await momo.disbursement.getBalance(); // the token is cached
    await momo.disbursement.deposit(transferBody); // the share of the next 2 s is taken
    const controller = new AbortController();
    const aborted = momo.disbursement
      .deposit(transferBody, { signal: controller.signal })
      .catch((e: unknown) => e);
    const late = momo.disbursement
      .deposit(transferBody, { timeoutMs: 100 })
      .catch((e: unknown) => e);
    const error = await late;
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/free request slot within createRate/);
    controller.abort('not needed'); // the other one is still queued: its deadline is 30 s away
    expect(await aborted).toBe('not needed');
    expect(creates).toHaveLength(1);
  });

  it('never makes maxConcurrency exceeded, whatever the mix of classes', async () => {
    const { options } = await provider(15);
    const { momo } = client(options, { maxConcurrency: 3, lookupRate: 1_000, createRate: 1_000 });
    await momo.disbursement.getBalance(); // the token is cached: only calls from here on
    const stats = service?.stats as { peakInFlight: number };
    stats.peakInFlight = 0;
    const d = momo.disbursement;
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 3 === 0
        ? d.deposit(transferBody)
        : i % 3 === 1
          ? d.getBalance()
          : d.isAccountHolderActive('msisdn', '46733123450'),
    );
    expect(await Promise.all(calls)).toHaveLength(20);
    expect(stats.peakInFlight).toBeLessThanOrEqual(3);
    expect(stats.peakInFlight).toBeGreaterThan(1);
  });
});
