/**
 * A batch re-run after its state was lost (the state folder deleted, another machine, a
 * store's retention, `DELETE FROM momo.batch_items`): with derived reference ids every
 * row is sent again under the id it had, and a 409 proves only that something was sent
 * under that id. The provider's transaction is compared with the row: a row edited since,
 * or a new list under a reused batch id, is REJECTED naming the field and both values,
 * never SUCCESSFUL; the same rows run again are SUCCESSFUL (DESIGN 9.1).
 *
 * Run against every batch store: `lose()` loses the store's state the way that store
 * loses it; `store()` is the store a re-run opens then.
 */
import type { BatchStore } from 'momo-partner-sdk';
import { Batches, type BatchItem, type BatchReport } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';

export interface LosableStore {
  /** The store a run opens (a new store object over the same state, as a process would). */
  store(): BatchStore;
  /** Loses every batch's state (the store's data deleted), as that store loses it. */
  lose(): Promise<void>;
}

const SECRET = 'partner-batch-secret-0123456789';
/** A payee that succeeds, other than `PAYEE.ok`. */
const OTHER_PAYEE = '46733123998';

export function adoptedCases(name: string, make: () => Promise<LosableStore>): void {
  describe(`${name}: a re-run after the state was lost`, { timeout: 60_000 }, () => {
    const h = useSimulator();
    const run = (state: LosableStore, items: BatchItem[], id = 'payroll') =>
      new Batches(h.client()).run(items, { id, store: state.store(), secret: SECRET });
    const byKey = (report: BatchReport) =>
      Object.fromEntries(report.items.map((i) => [i.key, [i.status, i.reason]]));

    /** No item reported SUCCESSFUL that the provider did not pay as the item says. */
    function expectEverySuccessPaidAsItSays(report: BatchReport, items: BatchItem[]) {
      for (const item of report.items.filter((i) => i.status === 'SUCCESSFUL')) {
        const body = items.find((i) => i.key === item.key)?.body as {
          amount: string;
          payee: { partyId: string };
        };
        const tx = h.sim.transactions.find((t) => t.referenceId === item.referenceId);
        expect(tx?.status, item.key).toBe('SUCCESSFUL');
        expect(Number(tx?.amount), item.key).toBe(Number(body.amount));
        expect(tx?.payee?.partyId, item.key).toBe(body.payee.partyId);
      }
    }

    it('the same rows: every one SUCCESSFUL again (the provider holds each as the row says), nothing sent twice', async () => {
      const state = await make();
      const rows = [row('r1', PAYEE.ok), row('r2', PAYEE.ok, '7.5'), row('r3', PAYEE.rejected)];
      const first = await run(state, rows);
      await state.lose();
      // "7.50" is the amount "7.5" was: decimals compared, not strings.
      const again = await run(state, [
        rows[0],
        row('r2', PAYEE.ok, '7.50'),
        rows[2],
      ] as BatchItem[]);
      expect(byKey(again)).toEqual({
        r1: ['SUCCESSFUL', undefined],
        r2: ['SUCCESSFUL', undefined],
        r3: ['FAILED', 'APPROVAL_REJECTED'],
      });
      expect(again.items.map((i) => i.referenceId)).toEqual(first.items.map((i) => i.referenceId));
      expect(h.sim.transactions).toHaveLength(3);
    });

    it('a paid row whose amount or payee was edited: REJECTED naming the field and both values, never SUCCESSFUL', async () => {
      const state = await make();
      const rows = [row('r1', PAYEE.ok), row('r2', PAYEE.ok), row('r3', PAYEE.ok)];
      const first = await run(state, rows);
      expect(first.summary.successful).toBe(3);
      const balance = await h.client().disbursement.getBalance();
      await state.lose();

      const edited = [row('r1', PAYEE.ok, '150.00'), row('r2', OTHER_PAYEE), rows[2] as BatchItem];
      for (let pass = 0; pass < 2; pass++) {
        // The second pass: the lost-state run recorded no outcome for the edited rows.
        const again = await run(state, edited);
        expect(byKey(again)).toEqual({
          r1: [
            'REJECTED',
            'amount: the provider holds 10.00 for this reference id, the item says 150.00; not sent',
          ],
          r2: [
            'REJECTED',
            `payee: the provider holds MSISDN ${PAYEE.ok} for this reference id, the item says MSISDN ${OTHER_PAYEE}; not sent`,
          ],
          r3: ['SUCCESSFUL', undefined],
        });
        expect(again.summary).toMatchObject({ successful: 1, rejected: 2 });
        expect(again.summary.amounts).toEqual({ EUR: { successful: '10.00', failed: '0' } });
        expectEverySuccessPaidAsItSays(again, edited);
      }
      expect(h.sim.transactions).toHaveLength(3); // nothing new was sent
      expect(await h.client().disbursement.getBalance()).toEqual(balance);
    });

    it('a new list under a reused batch id: no row SUCCESSFUL that the provider did not pay as it says', async () => {
      const state = await make();
      const january = [row('emp-1', PAYEE.ok), row('emp-2', PAYEE.ok), row('emp-3', PAYEE.pending)];
      await run(state, january.slice(0, 2));
      // emp-3 is still PENDING at the provider: it is compared on its first lookup, not awaited.
      const pending = new Batches(h.client()).run([january[2] as BatchItem], {
        id: 'payroll',
        store: state.store(),
        secret: SECRET,
        waitTimeoutMs: 300,
      });
      expect((await pending).items[0]?.status).toBe('UNRESOLVED');
      await state.lose();

      const february = [
        row('emp-1', OTHER_PAYEE, '12.00'),
        row('emp-2', PAYEE.ok, '11.00'),
        row('emp-3', OTHER_PAYEE),
        row('emp-4', PAYEE.ok), // a new key: sent and paid
      ];
      const report = await run(state, february);
      const statuses = byKey(report);
      expect(Object.fromEntries(Object.entries(statuses).map(([k, [s]]) => [k, s]))).toEqual({
        'emp-1': 'REJECTED',
        'emp-2': 'REJECTED',
        'emp-3': 'REJECTED',
        'emp-4': 'SUCCESSFUL',
      });
      expect(statuses['emp-1']?.[1]).toBe(
        `amount: the provider holds 10.00 for this reference id, the item says 12.00; payee: the provider holds MSISDN ${PAYEE.ok} for this reference id, the item says MSISDN ${OTHER_PAYEE}; not sent`,
      );
      expect(statuses['emp-3']?.[1]).toMatch(/^payee: the provider holds MSISDN 46733123453 /);
      expectEverySuccessPaidAsItSays(report, february);
      expect(h.sim.transactions).toHaveLength(4); // emp-4 only was new
    });
  });
}
