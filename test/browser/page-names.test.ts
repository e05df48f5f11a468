import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from './chromium';

// The payer's phone keeps rendering whatever a batch is named: names that are properties
// of every JavaScript object (a batch named `constructor` once stopped the whole page) and
// names full of HTML, shown as text, never as markup.
const sim = createSimulator({ settleMs: 600_000 }); // rows stay PENDING: nothing moves
const momo = sim.client();
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '<img src=x onerror="document.title=\'owned\'">',
  '<svg onload="document.title=\'owned\'"><script>document.title="owned"<\\script>',
  '"quoted" & \'single\' &amp; <b>bold', // no `/`: a tag splits at its first `/`
];

/** The page is updated every 200 ms: 15 s is generous on a loaded 2-core machine. */
const POLL = { timeout: 15_000 };

let server: ListeningServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

describe.skipIf(skipBrowser)('the payer’s phone with any batch name', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await sim.listen();
    browser = await launchChromium();
    page = await browser.newPage();
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

  it('shows every batch, the page still live afterwards, names as text', async () => {
    const body = { amount: '5', currency: 'EUR', payee };
    const runs = [...NAMES, 'after-them'].map((id) =>
      new Batches(momo).run([{ key: `emp-of-${id}`, body }], {
        id,
        operation: 'disbursement.transfer',
        store: memoryBatchStore(),
        waitTimeoutMs: 600_000,
      }),
    );
    for (const id of [...NAMES, 'after-them']) {
      const batch = page.getByRole('region', { name: `Batch ${id}`, exact: true });
      await expect.poll(() => batch.locator('h3').textContent(), POLL).toBe(`Batch ${id}`);
      expect(await batch.locator('.counts').textContent()).toBe(
        '1 row received: 1 PENDING, 0 SUCCESSFUL, 0 FAILED',
      );
      expect(await batch.getByRole('cell').first().textContent()).toBe(`emp-of-${id}`);
    }
    expect(
      await page.locator('#batches img, #batches svg, #batches script, #batches b').count(),
    ).toBe(0);
    expect(await page.title()).not.toBe('owned');

    // Still live: a row settled now shows.
    const tx = sim.transactions.find((t) => t.tag === 'constructor/emp-of-constructor');
    sim.settle(tx?.referenceId ?? '', 'SUCCESSFUL');
    const named = page.getByRole('region', { name: 'Batch constructor', exact: true });
    await expect
      .poll(() => named.locator('.counts').textContent(), POLL)
      .toBe('1 row received: 0 PENDING, 1 SUCCESSFUL, 0 FAILED');
    expect(problems).toEqual([]);
    for (const t of sim.transactions)
      if (t.status === 'PENDING') sim.settle(t.referenceId, 'SUCCESSFUL');
    await Promise.all(runs);
  });
});
