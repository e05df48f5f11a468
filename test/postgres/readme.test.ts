import { resolve } from 'node:path';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, runSnippet } from '../support/snippets';
import { usePostgres } from './support';

const root = resolve(import.meta.dirname, '../..');

describeWithPostgres("docs/scaling.md's PostgreSQL snippet (real PostgreSQL)", () => {
  const pg15 = usePostgres();

  it('runs as written: migrated, the batch paid, each row SUCCESSFUL in its tables', {
    timeout: 90_000,
  }, async () => {
    const snippet = collectSnippets(root).find(
      (s) => s.where.startsWith('docs/scaling.md') && s.code.includes('createPostgresState'),
    );
    if (!snippet) throw new Error('no PostgreSQL snippet in docs/scaling.md');
    const sim = createSimulator({ settleMs: 50 });
    const http = await sim.listen({ port: 0 });
    try {
      const { baseUrl: _, ...credentials } = sim.credentials;
      // What the prose around it says the free names are: your client options, your rows.
      const before = `import { MomoClient } from 'momo-partner-sdk';
const options = ${JSON.stringify({ ...credentials, baseUrl: http.url })};
const rows = ['row-1', 'row-2'].map((key) => ({ key, body: { amount: '10', currency: 'EUR',
  externalId: key, payee: { partyIdType: 'MSISDN', partyId: '46733123999' } } }));
`;
      const after = '\nawait pool.end();\n';
      const imports = snippet.code.match(/^import .*$/gm)?.join('\n') ?? '';
      const body = snippet.code.replace(/^import .*$/gm, '');
      const { port, user, database } = pg15.server().config;
      const run = await runSnippet(
        root,
        'postgres-state.ts',
        `${imports}\n${before}${body}${after}`,
        {
          DATABASE_URL: `postgres://${user}@127.0.0.1:${port}/${database}`,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(sim.transactions.map((t) => t.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
      const items = await pg15
        .pool()
        .query('SELECT key, status FROM momo.batch_items ORDER BY key');
      expect(items.rows).toEqual([
        { key: 'row-1', status: 'SUCCESSFUL' },
        { key: 'row-2', status: 'SUCCESSFUL' },
      ]);
      const journal = await pg15.pool().query('SELECT count(*)::int AS n FROM momo.journal');
      expect(journal.rows[0]?.n).toBe(2);
    } finally {
      await http.close();
    }
  });
});
