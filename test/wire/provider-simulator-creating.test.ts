import { describe, expect, it } from 'vitest';
import { UUID_V4, useWireSimulator } from '../support/wire';
import { CREATING, invoice, OK, PENDING, preApproval, withCallback } from './simulator-cases';

// The creating operations, through the real client and msw, against the simulator's
// handlers (not handlers written for the test): what went over the wire, the parsed
// result, waits to SUCCESSFUL and to FAILED, and the callback's method; then pre-approvals
// listed and cancelled, invoices cancelled.

const { sim, momo, only, expectCreate, expectLookup } = useWireSimulator({ settleMs: 0 });

/** The callbacks the simulator delivered to `referenceId`'s URL, as `method status`. */
const deliveries = (referenceId: string) =>
  sim.callbacks
    .filter((c) => c.url === `https://partner.test/momo/${referenceId}`)
    .map((c) => `${c.method} ${c.status}`);

describe.each(CREATING)('$name on the wire against the simulator', (op) => {
  it(`POST ${op.path} with the headers and body; wait() to SUCCESSFUL; callback by ${op.callback}`, async () => {
    const client = momo();
    const body = await op.body(client);
    const accepted = await op.send(client, body);
    const request = only('POST', op.path);
    expectCreate(request, accepted.referenceId, body);
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${accepted.referenceId}`,
    );
    const result = await accepted.wait();
    expect(result).toMatchObject({
      referenceId: accepted.referenceId,
      status: 'SUCCESSFUL',
      ...op.success,
    });
    const lookups = sim.requests.filter((r) => r.path === op.lookup(accepted.referenceId));
    expect(lookups.length, op.lookup(accepted.referenceId)).toBeGreaterThan(0);
    for (const lookup of lookups) expectLookup(lookup);
    await expect.poll(() => deliveries(accepted.referenceId)).toEqual([`${op.callback} 200`]);
  });

  it(`wait() to FAILED with the reason ${op.reason}; the lookup reads it again`, async () => {
    const client = momo();
    const accepted = await op.send(client, await op.failing(client));
    const result = await accepted.wait();
    expect(result).toMatchObject({ status: 'FAILED', reason: { code: op.reason } });
    expect(await op.get(client, accepted.referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: op.reason },
    });
    await expect.poll(() => deliveries(accepted.referenceId)).toEqual([`${op.callback} 200`]);
  });
});

describe('pre-approvals listed and cancelled, invoices cancelled (simulator)', () => {
  it('getApprovedPreApprovals lists the approved one; cancelPreApproval DELETEs it; the list is then empty', async () => {
    const client = momo().collection;
    await client.preApproval(preApproval(OK)).wait();
    const listed = await client.getApprovedPreApprovals('msisdn', OK);
    expectLookup(only('GET', `/collection/v1_0/preapprovals/msisdn/${OK}`));
    expect(listed).toEqual([
      expect.objectContaining({
        preApprovalId: expect.stringMatching(UUID_V4),
        status: 'APPROVED',
        fromCurrency: 'EUR',
        fromFri: `FRI:${OK}/MSISDN`,
      }),
    ]);
    const { preApprovalId } = listed[0] as { preApprovalId: string };
    await expect(client.cancelPreApproval(preApprovalId)).resolves.toBeUndefined();
    expectLookup(only('DELETE', `/collection/v1_0/preapproval/${preApprovalId}`));
    expect(await client.getApprovedPreApprovals('msisdn', OK)).toEqual([]);
  });

  it('cancelInvoice: DELETE with its own X-Reference-Id, callback URL and { externalId }; the invoice ends FAILED', async () => {
    const client = momo().collection;
    const created = await client.createInvoice(invoice(PENDING), withCallback);
    const cancelled = await client.cancelInvoice(
      created.referenceId,
      { externalId: 'inv-1' },
      withCallback,
    );
    const request = only('DELETE', `/collection/v2_0/invoice/${created.referenceId}`);
    expect(cancelled.referenceId).not.toBe(created.referenceId);
    expectCreate(request, cancelled.referenceId, { externalId: 'inv-1' });
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${cancelled.referenceId}`,
    );
    expect(cancelled).toMatchObject({ invoiceReferenceId: created.referenceId });
    expect(await client.waitForInvoice(created.referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'TRANSACTION_CANCELED' },
    });
    await expect.poll(() => deliveries(created.referenceId)).toEqual(['PUT 200']);
    await expect.poll(() => deliveries(cancelled.referenceId)).toEqual(['PUT 200']);
  });
});
