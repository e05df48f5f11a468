import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from './chromium';

// The payer's phone (GET /_simulator/) in headless Chromium, against sim.listen(): the
// client talks to the same simulator in memory, the page follows it over server-sent events.
const sim = createSimulator({ settleMs: 600_000 }); // pending until the payer answers
const momo = sim.client();
const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;

let server: ListeningServer;
let receiver: Server;
let callbackUrl: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];

describe.skipIf(skipBrowser)("the payer's phone in a browser", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await sim.listen();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/momo/callback`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('shows a request to pay live; Approve ends its wait() SUCCESSFUL', async () => {
    const payment = await momo.collection.requestToPay(
      { amount: '120', currency: 'EUR', externalId: 'order-2001', payer },
      { callbackUrl },
    );
    const card = page.getByRole('listitem').filter({ hasText: payment.referenceId });
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('120 EUR');
    expect(await card.textContent()).toContain('collection.requestToPay');
    expect(await card.textContent()).toContain('payer: MSISDN 46733123999');
    const approve = page.getByRole('button', {
      name: `Approve collection.requestToPay 120 EUR ${payment.referenceId}`,
    });
    await approve.click();
    const result = await payment.wait();
    expect(result.status).toBe('SUCCESSFUL');
    await card.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: payment.referenceId });
    await expect.poll(() => row.textContent()).toContain('SUCCESSFUL');
  });

  it('shows the delivered callback: URL, method, HTTP status, latency, body; Resend sends it again', async () => {
    const row = page.getByRole('row').filter({ hasText: callbackUrl }).first();
    const cells = row.getByRole('cell');
    await expect.poll(() => cells.nth(3).textContent()).toBe('204');
    expect(await cells.nth(1).textContent()).toBe(sim.callbacks[0]?.method);
    expect(await cells.nth(2).textContent()).toBe(callbackUrl);
    expect(await cells.nth(4).textContent()).toMatch(/^\d+ ms$/);
    await row.getByText('Body').click();
    expect(await row.locator('pre').textContent()).toContain('"status": "SUCCESSFUL"');
    const before = sim.callbacks.length;
    await row.getByRole('button', { name: /^Resend callback 1 to / }).click();
    await expect.poll(() => sim.callbacks.length).toBe(before + 1);
    await expect.poll(() => sim.callbacks.at(-1)?.status).toBe(204);
  });

  it('by keyboard: Tab to Decline, Enter; the wait() ends FAILED with APPROVAL_REJECTED', async () => {
    const payment = await momo.collection.requestToPay({ amount: '35.50', currency: 'EUR', payer });
    const decline = page.getByRole('button', { name: /^Decline / }).filter({ hasText: 'Decline' });
    await page.getByRole('listitem').filter({ hasText: payment.referenceId }).waitFor();
    await page.locator('body').focus();
    let focused = '';
    for (let presses = 0; presses < 20 && !focused.startsWith('Decline'); presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    }
    expect(focused).toBe(`Decline collection.requestToPay 35.50 EUR ${payment.referenceId}`);
    expect(await decline.count()).toBe(1);
    await page.keyboard.press('Enter');
    const result = await payment.wait();
    expect(result).toMatchObject({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } });
    await expect.poll(() => page.locator('#announce').textContent()).toContain('Declined');
  });

  it('shows balances and the API user; a fault armed in the page hits the client, then Disarm', async () => {
    expect(await page.locator('#balances').textContent()).toContain('collection1000120.00 EUR');
    expect(await page.locator('#users').textContent()).toContain(sim.credentials.apiUser.id);
    await page.getByLabel('Requests to match').fill('GET /collection/v1_0/account/balance');
    await page.getByLabel('HTTP status', { exact: true }).fill('503');
    await page.getByLabel('Times').fill('5');
    await page.getByRole('button', { name: 'Arm fault' }).click();
    const disarm = page.getByRole('button', { name: /^Disarm fault/ });
    await disarm.waitFor();
    await expect(momo.collection.getBalance({ maxRetries: 0 })).rejects.toMatchObject({
      status: 503,
    });
    await disarm.click();
    await disarm.waitFor({ state: 'detached' });
    expect((await momo.collection.getBalance()).availableBalance).toBe('1000120.00');
  });

  it('arms a delay fault: the answer comes late, the fault is consumed', async () => {
    await page.getByLabel('Requests to match').fill('GET /collection/v1_0/account/balance');
    await page.getByRole('combobox', { name: /^Fault/ }).selectOption('delay');
    await page.getByLabel('Delay (ms)').fill('300');
    await page.getByLabel('Times').fill('1');
    await page.getByRole('button', { name: 'Arm fault' }).click();
    const armed = page.locator('#faults li').filter({ hasText: 'delay 300 ms' });
    await armed.waitFor();
    expect(await armed.textContent()).toContain('GET /collection/v1_0/account/balance');
    expect((await momo.collection.getBalance()).currency).toBe('EUR');
    await armed.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  it('shows a batch: its rows and counts, live as its rows end', async () => {
    const items = ['10', '20', '30'].map((amount, n) => ({
      key: `emp-${n + 1}`,
      body: { amount, currency: 'EUR', externalId: `emp-${n + 1}`, payee: payer },
    }));
    const run = new Batches(momo).run(items, {
      id: 'payroll-page',
      operation: 'disbursement.transfer',
      store: memoryBatchStore(),
    });
    const batch = page.getByRole('region', { name: 'Batch payroll-page' });
    const counts = batch.locator('.counts');
    await expect
      .poll(() => counts.textContent())
      .toBe('3 rows received: 3 PENDING, 0 SUCCESSFUL, 0 FAILED');
    const sent = sim.transactions.filter((tx) => tx.tag?.startsWith('payroll-page/'));
    const ids = items.map(
      (item) => sent.find((tx) => tx.tag === `payroll-page/${item.key}`)?.referenceId ?? '',
    );
    const cells = batch.getByRole('row').filter({ hasText: 'emp-2' }).getByRole('cell');
    expect(await cells.allTextContents()).toEqual(['emp-2', ids[1], '20 EUR', 'PENDING']);
    sim.settle(ids[0] ?? '', 'SUCCESSFUL');
    sim.settle(ids[1] ?? '', 'FAILED', { code: 'PAYEE_NOT_FOUND', message: 'No such payee.' });
    await expect
      .poll(() => counts.textContent())
      .toBe('3 rows received: 1 PENDING, 1 SUCCESSFUL, 1 FAILED');
    expect(await cells.nth(3).textContent()).toBe('FAILED (PAYEE_NOT_FOUND)');
    sim.settle(ids[2] ?? '', 'SUCCESSFUL');
    const report = await run;
    expect(report.items.map((item) => [item.key, item.referenceId, item.status])).toEqual([
      ['emp-1', ids[0], 'SUCCESSFUL'],
      ['emp-2', ids[1], 'FAILED'],
      ['emp-3', ids[2], 'SUCCESSFUL'],
    ]);
    await expect
      .poll(() => counts.textContent())
      .toBe('3 rows received: 0 PENDING, 2 SUCCESSFUL, 1 FAILED');
  });

  // SCREENSHOTS=1 npx vitest run test/browser: the images of docs/simulator.md.
  it.runIf(process.env.SCREENSHOTS)('screenshots for docs/simulator.md', async () => {
    const pending = await momo.collection.requestToPay(
      { amount: '49.99', currency: 'EUR', externalId: 'order-2002', payer },
      { callbackUrl },
    );
    const transfer = await momo.disbursement.transfer({
      amount: '15',
      currency: 'EUR',
      payee: { partyIdType: 'MSISDN', partyId: '46733123454' },
    });
    for (const id of [pending.referenceId, transfer.referenceId]) {
      await page.getByRole('listitem').filter({ hasText: id }).waitFor();
    }
    await page.getByRole('button', { name: /^Approve collection/ }).focus();
    await page.screenshot({ path: 'docs/images/simulator-phone.png', fullPage: true });
    const callbacks = page.locator('section').filter({ has: page.locator('#callbacks') });
    await callbacks.getByText('Body').first().click();
    await callbacks.screenshot({ path: 'docs/images/simulator-callbacks.png' });
  });

  it('logged no console error', () => {
    expect(problems).toEqual([]);
  });
});
