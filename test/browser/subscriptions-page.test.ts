import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '../simulator/helpers';
import { launchChromium, skipBrowser } from './chromium';

// A gym's monthly plan on the simulator's clock, seen on the payer's phone: the payer
// approves the mandate on the page, two months are charged, and the page lists the mandate
// with both charges under it, newest first.
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 9); // 5 January 2026, 09:00 UTC
const sim = createSimulator({
  settleMs: 0,
  currency: 'GHS',
  clock: { now: () => T0 },
  tokenTtlSeconds: 365 * 86_400, // a token outlives the simulated months
});
const momo = sim.client();
// 123453: a payer who answers no prompt; under an approved mandate no prompt is needed.
const payer = { partyIdType: 'MSISDN', partyId: '233244123453' } as const;
// The plan's message, as the payer reads it (the API refuses `'`, `&`, `<`, `>` in it).
const MESSAGE = 'Gym "Fit Club": 50 GHS a month';
// Fields the SDK never sends but a raw request may: shown as text, never as markup.
const MARKUP =
  '<img src=x onerror="document.title=\'owned\'"><script>document.title="owned"</script>';
const subs = new Subscriptions(momo, {
  store: memorySubscriptionStore(),
  secret: 'subscriptions-page-test-secret-0123456789',
  now: () => sim.clock.now(),
  waitMs: 5_000,
});

/** The page is updated every 200 ms: 15 s is generous on a loaded 2-core machine. */
const POLL = { timeout: 15_000 };

let server: ListeningServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

describe.skipIf(skipBrowser)(
  "the payer's subscriptions on the payer's phone",
  { timeout: 90_000 },
  () => {
    beforeAll(async () => {
      server = await sim.listen();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.setDefaultTimeout(15_000); // a loaded 2-core machine: generous, and a failure still ends
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${server.url}/_simulator/`);
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('shows the mandate, Approve on the page, then the charges of two months under it', async () => {
      await subs.plan({
        id: 'gym-monthly',
        amount: '50',
        currency: 'GHS',
        every: 'month',
        payerMessage: MESSAGE,
      });
      const sub = await subs.subscribe({
        key: 'member-42',
        plan: 'gym-monthly',
        payer,
        startAt: T0,
      });
      await subs.runDue(); // asks for the pre-approval
      const ref = sub.mandate.referenceId;
      const partner = sim.credentials.apiUser.id;

      const payerBlock = page.getByRole('region', { name: 'Subscriptions of MSISDN 233244123453' });
      const mandate = payerBlock.getByRole('article', { name: `Pre-approval ${ref}` });
      await expect
        .poll(() => mandate.locator('.mandate-status').textContent(), POLL)
        .toBe('PENDING');
      expect(await mandate.getByRole('heading').textContent()).toBe(`Pre-approval from ${partner}`);
      expect(await mandate.locator('dd').allTextContents()).toEqual(
        // The mandate's message states its terms, then the plan's message and its tag.
        expect.arrayContaining([
          `50 GHS a month (${MESSAGE}), ref ${ref.replace(/-/g, '').slice(0, 8)}`,
          'GHS',
          '365 days',
          '2026-01-05 09:00:00 UTC',
        ]),
      );

      // By keyboard: focus the button, press Enter.
      await mandate
        .getByRole('button', { name: `Approve pre-approval ${ref} from ${partner}` })
        .focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => sim.transaction(ref)?.status, POLL).toBe('SUCCESSFUL');
      await expect
        .poll(() => mandate.locator('.mandate-status').textContent(), POLL)
        .toBe('APPROVED');
      expect(await mandate.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
      expect(await mandate.textContent()).toContain('No charge under it yet.');

      sim.clock.advance(60_000); // the runner looks at a pending mandate again a minute later
      await subs.runDue(); // the mandate approved: January's charge
      sim.clock.advance(31 * DAY);
      await subs.runDue(); // February's
      const charges = sim.transactions.filter((tx) => tx.operation === 'collection.requestToPay');
      expect(charges.map((tx) => tx.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
      const preApprovalId = sim.transaction(ref)?.preApproval?.preApprovalId;
      expect(charges.map((tx) => tx.underPreApproval)).toEqual([preApprovalId, preApprovalId]);

      const table = mandate.getByRole('table', { name: `Charges under pre-approval ${ref}` });
      const rows = table.locator('tbody tr');
      await expect.poll(() => rows.count(), POLL).toBe(2);
      const [january, february] = charges;
      const cellsOf = (n: number) => rows.nth(n).getByRole('cell').allTextContents();
      // Newest first: February's charge on top.
      expect(await cellsOf(0)).toEqual([
        '2026-02-05 09:01:00 UTC',
        '50 GHS',
        'SUCCESSFUL',
        // Its externalId: the subscription's identity and the period.
        expect.stringMatching(/^[0-9a-f-]{36}:1$/),
        MESSAGE,
        february?.referenceId,
      ]);
      expect((await cellsOf(1)).slice(0, 3)).toEqual([
        '2026-01-05 09:01:00 UTC',
        '50 GHS',
        'SUCCESSFUL',
      ]);
      expect((await cellsOf(1))[5]).toBe(january?.referenceId);
      expect(await mandate.locator('dd').allTextContents()).toEqual(
        expect.arrayContaining([
          '2026-01-05 09:00:00 UTC',
          '2027-01-05 09:00:00 UTC',
          preApprovalId,
        ]),
      );

      expect(problems).toEqual([]);
    });

    it('Decline on the page: the mandate DECLINED, nothing charged under it', async () => {
      const who = { partyIdType: 'MSISDN', partyId: '233245123454' } as const;
      const sub = await subs.subscribe({
        key: 'member-43',
        plan: 'gym-monthly',
        payer: who,
        startAt: sim.clock.now(),
      });
      await subs.runDue();
      const ref = sub.mandate.referenceId;
      const mandate = page
        .getByRole('region', { name: `Subscriptions of MSISDN ${who.partyId}` })
        .getByRole('article', { name: `Pre-approval ${ref}` });
      await mandate.getByRole('button', { name: /^Decline pre-approval / }).click();
      await expect
        .poll(() => mandate.locator('.mandate-status').textContent(), POLL)
        .toBe('DECLINED (APPROVAL_REJECTED)');
      expect(await mandate.getByRole('button').count()).toBe(0);
      expect(await mandate.getByRole('table').count()).toBe(0);
      await expect
        .poll(() => page.locator('#announce').textContent(), POLL)
        .toBe(`Declined pre-approval ${ref}: FAILED.`);
      if (process.env.SCREENSHOTS) {
        // SCREENSHOTS=1 npx vitest run test/browser: the image of docs/simulator.md.
        await page
          .getByRole('region', { name: 'Subscriptions', exact: true })
          .screenshot({ path: 'docs/images/simulator-subscriptions.png' });
      }
    });

    it('shows what a raw request sent (description, frequency) as text', async () => {
      const http = rawClient(sim);
      const { referenceId, response } = await http.create('/collection/v2_0/preapproval', {
        payer: { partyIdType: 'MSISDN', partyId: '233244555777' },
        payerCurrency: 'GHS',
        description: MARKUP,
        frequency: `MONTHLY ${MARKUP}`,
      });
      expect(response.status).toBe(202);
      const mandate = page
        .getByRole('region', { name: 'Subscriptions of MSISDN 233244555777' })
        .getByRole('article', { name: `Pre-approval ${referenceId}` });
      await expect.poll(() => mandate.locator('dd').first().textContent(), POLL).toBe(MARKUP);
      expect(await mandate.locator('dd').nth(1).textContent()).toBe(`MONTHLY ${MARKUP}`);
      expect(await page.locator('#payers img, #payers script').count()).toBe(0);
      expect(await page.title()).not.toBe('owned');
      expect(problems).toEqual([]);
    });
  },
);
