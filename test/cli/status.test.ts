import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `status` as a child process against a loopback simulator, for each kind of operation.
const { sim, env } = useLoopbackSimulator();
const { subscriptionKey, apiUser } = sim.credentials;
const momo = () => sim.client();
const payee = (partyId: string) => ({ partyIdType: 'MSISDN', partyId }) as const;
const SUCCEEDS = '46733123999';
const REJECTED = '46733123451';
const PENDING_FOREVER = '46733123453';
const transfer = (partyId: string) => ({ amount: '3', currency: 'EUR', payee: payee(partyId) });

describe('momo-partner-sdk status', { timeout: 60_000 }, () => {
  it('every product and kind: SUCCESSFUL is exit 0, in human and --json output', async () => {
    const client = momo();
    const made = {
      'disbursement transfer': await client.disbursement.transfer(transfer(SUCCEEDS)),
      'disbursement deposit': await client.disbursement.deposit(transfer(SUCCEEDS)),
      'collection requesttopay': await client.collection.requestToPay({
        amount: '3',
        currency: 'EUR',
        payer: payee(SUCCEEDS),
      }),
      'collection requesttowithdraw': await client.collection.requestToWithdraw({
        amount: '3',
        currency: 'EUR',
        payer: payee(SUCCEEDS),
      }),
      'remittance transfer': await client.remittance.transfer(transfer(SUCCEEDS)),
      'remittance cashtransfer': await client.remittance.cashTransfer({
        amount: '3',
        currency: 'EUR',
        payee: payee(SUCCEEDS),
        orginatingCountry: 'PT',
        originalAmount: '4',
        originalCurrency: 'USD',
        payerIdentificationType: 'PASS',
        payerIdentificationNumber: 'P1234567',
      }),
      'disbursement merchantpayment': await client.disbursement.merchantPaymentWithConsent(
        { amount: '3' },
        { consent: sim.grantConsent({ msisdn: SUCCEEDS }).accessToken },
      ),
    };
    await Promise.all(Object.values(made).map((op) => op.wait()));
    const refund = await client.disbursement.refund({
      amount: '1',
      currency: 'EUR',
      referenceIdToRefund: made['disbursement deposit'].referenceId,
    });
    await refund.wait();
    const all = { ...made, 'disbursement refund': refund };

    // All at once: each run is a separate process.
    const checks = Object.entries(all).map(async ([words, op]) => {
      const [product = '', kind = ''] = words.split(' ');
      const [human, json] = await Promise.all([
        runCli(['status', product, kind, op.referenceId], env()),
        runCli(['status', product, kind, op.referenceId, '--json'], env()),
      ]);
      expect(human.code, words).toBe(0);
      expect(human.stdout).toMatch(new RegExp(`^${words} ${op.referenceId}: SUCCESSFUL\\n`));
      expect(JSON.parse(json.stdout)).toMatchObject({ status: 'SUCCESSFUL' });
      expectNoneOf(human, [subscriptionKey, apiUser.key]);
      expectNoneOf(json, [subscriptionKey, apiUser.key]);
    });
    await Promise.all(checks);
  });

  it('FAILED is exit 4, with the reason', async () => {
    const op = await momo().disbursement.deposit(transfer(REJECTED));
    await op.wait();
    const [human, json] = await Promise.all([
      runCli(['status', 'disbursement', 'deposit', op.referenceId], env()),
      runCli(['status', 'disbursement', 'deposit', op.referenceId, '--json'], env()),
    ]);
    expect(human.code).toBe(4);
    expect(human.stdout).toContain(
      `disbursement deposit ${op.referenceId}: FAILED (APPROVAL_REJECTED: The transaction was rejected.)`,
    );
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout).reason).toMatchObject({ code: 'APPROVAL_REJECTED' });
  });

  it('PENDING is exit 0 without --wait; --wait returns once it is settled', async () => {
    const op = await momo().collection.requestToPay({
      amount: '4',
      currency: 'EUR',
      payer: payee(PENDING_FOREVER),
    });
    const args = ['status', 'collection', 'requesttopay', op.referenceId];
    const now = await runCli(args, env());
    expect(now).toMatchObject({ code: 0 });
    expect(now.stdout).toContain(': PENDING');

    const waiting = runCli([...args, '--wait', '--json'], env());
    await expect
      .poll(() => sim.requests.filter((r) => r.path.endsWith(op.referenceId)).length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(2);
    sim.settle(op.referenceId, 'FAILED', { code: 'EXPIRED', message: 'Too late.' });
    const waited = await waiting;
    expect(waited.code).toBe(4);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'EXPIRED' },
    });
  });

  it('--wait --timeout-ms ends with exit 5 and the last status', async () => {
    const op = await momo().disbursement.transfer(transfer(PENDING_FOREVER));
    const run = await runCli(
      ['status', 'disbursement', 'transfer', op.referenceId, '--wait', '--timeout-ms', '1500'],
      env(),
    );
    expect(run.code).toBe(5);
    expect(run.stdout).toContain(`disbursement transfer ${op.referenceId}: PENDING`);
    expect(run.stderr).toContain('not final after 1500 ms');
    // Progress on stderr: where and in which target environment it waits, each status seen.
    const progress = run.stderr.split('\n');
    expect(progress[0]).toBe(
      `disbursement transfer ${op.referenceId}: waiting at ${env().MOMO_BASE_URL} (target environment sandbox), up to 1500 ms...`,
    );
    expect(progress[1]).toMatch(/^ {2}\d{4}-\d\d-\d\dT[\d:.]+Z {2}PENDING$/);
  });

  it('exit 3 for an unknown id (404); exit 2 for a bad id, kind or flag', async () => {
    const runs = await Promise.all([
      runCli(['status', 'disbursement', 'deposit', randomUUID()], env()),
      runCli(['status', 'disbursement', 'deposit', 'not-a-uuid'], env()),
      runCli(['status', 'collection', 'deposit', randomUUID()], env()),
      runCli(['status', 'disbursement', 'deposit'], env()),
      runCli(['status', 'disbursement', 'deposit', randomUUID(), '--timeout-ms', '5'], env()),
      runCli(
        ['status', 'disbursement', 'deposit', randomUUID(), '--wait', '--timeout-ms', '0'],
        env(),
      ),
    ]);
    expect(runs.map((r) => r.code)).toEqual([3, 2, 2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain('HTTP 404 RESOURCE_NOT_FOUND');
    expect(runs[1]?.stderr).toContain('referenceId must be a UUID version 4');
    expect(runs[2]?.stderr).toContain('Unknown kind for collection: deposit');
    expect(runs[3]?.stderr).toContain('Missing <product> <kind> <referenceId>');
    expect(runs[4]?.stderr).toContain('--timeout-ms goes with --wait');
    expect(runs[5]?.stderr).toContain('--timeout-ms must be a positive whole number');
  });
});
