import { resolve } from 'node:path';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, runSnippet } from '../support/snippets';

// README's "The outbox" run as written, in its own process: the order and its intent
// commit together, the relay sends it and settles the order in its own transaction.
const root = resolve(import.meta.dirname, '../..');

describeWithPostgres('README "The outbox" (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('commits the order with its payment, and the relay settles the order', {
    timeout: 90_000,
  }, async () => {
    const snippet = collectSnippets(root).find(
      (s) => s.where.startsWith('README.md') && s.code.includes('db.outbox.enqueue'),
    );
    if (!snippet) throw new Error('no outbox snippet in README.md');
    await pg15
      .pool()
      .query(
        "CREATE TABLE orders (id text PRIMARY KEY, msisdn text, amount text, status text NOT NULL DEFAULT 'PLACED')",
      );
    const sim = createSimulator({ settleMs: 50 });
    const http = await sim.listen({ port: 0 });
    try {
      const credentials = { ...sim.credentials, baseUrl: http.url };
      // What the prose says the free names are: your client, the order being placed.
      const before = `import { MomoClient } from 'momo-partner-sdk';
const momo = new MomoClient({ ...${JSON.stringify(credentials)}, polling: { initialDelayMs: 50, maxDelayMs: 200 } });
const order = { id: 'order-1', msisdn: '46733123999', amount: '25' };
`;
      const after = `
while ((await pool.query('SELECT status FROM orders')).rows[0]?.status === 'PLACED') {
  await new Promise((r) => setTimeout(r, 50));
}
await relay.stop(); await db.close(); await pool.end();
`;
      const imports = snippet.code.match(/^import .*$/gm)?.join('\n') ?? '';
      const body = snippet.code.replace(/^import .*$/gm, '');
      const { port, user, database } = pg15.server().config;
      const run = await runSnippet(
        root,
        'readme-outbox.ts',
        `${imports}\n${before}${body}${after}`,
        {
          DATABASE_URL: `postgres://${user}@127.0.0.1:${port}/${database}`,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const orders = await pg15.pool().query('SELECT id, status FROM orders');
      expect(orders.rows).toEqual([{ id: 'order-1', status: 'SUCCESSFUL' }]);
      expect(sim.transactions.map((t) => [t.operation, t.amount, t.status])).toEqual([
        ['collection.requestToPay', '25', 'SUCCESSFUL'],
      ]);
    } finally {
      await http.close();
    }
  });
});
