import { Collection, Disbursement, Remittance } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { ClientContext } from '../../src/products/client-context';
// The operation tables are internal: this test reads them where they are declared.
import type { TableOperation } from '../../src/products/endpoints';
import { operationTables } from '../../src/products/tables';
import { lookupOf } from '../../src/settle/lookups';

// The operation tables are the single source of truth (issue 13, item 1): every creating
// call names the lookup that confirms it, or is declared callback-only; everything that
// resumes, confirms or looks an operation up is derived from them.

type Table = Record<string, TableOperation>;
const PRODUCT_CLASSES = {
  disbursement: Disbursement,
  collection: Collection,
  remittance: Remittance,
};

/** What is wrong with a table: creating calls without a confirming lookup or declaration. */
function problemsOf(product: string, table: Table): string[] {
  const problems: string[] = [];
  const rows = new Set(Object.values(table));
  for (const [key, op] of Object.entries(table)) {
    if (!op.creates) continue;
    if (!Object.hasOwn(op, 'confirmedBy')) {
      problems.push(`${product}.${key}: creating, with no confirming lookup and not callback-only`);
      continue;
    }
    if (op.callbackMethod !== 'PUT' && op.callbackMethod !== 'POST') {
      problems.push(`${product}.${key}: no callback method`);
    }
    const lookup = op.confirmedBy;
    if (
      lookup &&
      !(rows.has(lookup) && lookup.method === 'GET' && lookup.path.endsWith('/{referenceId}'))
    ) {
      problems.push(`${product}.${key}: its lookup is not a GET by reference id of this table`);
    }
  }
  return problems;
}

const productTables = Object.entries(operationTables).filter(([name]) => name !== 'consent') as [
  keyof typeof PRODUCT_CLASSES,
  Table,
][];

describe('the operation tables', () => {
  it.each(productTables)(
    '%s: every creating call has a confirming lookup or is callback-only',
    (product, table) => {
      expect(problemsOf(product, table)).toEqual([]);
    },
  );

  it('the check fails for a creating call declared without either', () => {
    const { getTransfer } = operationTables.disbursement;
    const undeclared = {
      ...getTransfer,
      name: 'disbursement.payout',
      method: 'POST',
      creates: true,
    } as const;
    expect(problemsOf('disbursement', { getTransfer, payout: undeclared })).toEqual([
      'disbursement.payout: creating, with no confirming lookup and not callback-only',
    ]);
  });

  it('callback-only operations are exactly the ones without a lookup in the API', () => {
    const callbackOnly = productTables.flatMap(([, table]) =>
      Object.values(table)
        .filter((op) => op.creates && op.confirmedBy === undefined)
        .map((op) => op.name),
    );
    expect(callbackOnly.sort()).toEqual([
      'collection.cancelInvoice',
      'collection.redeemVoucher',
      'collection.standardDisbursement',
    ]);
  });

  it.each(productTables)(
    '%s: each confirming lookup has its getX and waitForX method',
    (product, table) => {
      const methods = PRODUCT_CLASSES[product].prototype as unknown as Record<string, unknown>;
      for (const op of Object.values(table)) {
        if (!op.confirmedBy) continue;
        const getter = op.confirmedBy.name.slice(product.length + 1);
        expect(typeof methods[getter], getter).toBe('function');
        expect(typeof methods[`waitFor${getter.slice(3)}`], getter).toBe('function');
      }
    },
  );

  it("scale-out finds each creating call's lookup by its journal name, through the context", () => {
    const ctx = new ClientContext({
      baseUrl: 'https://momo.example',
      targetEnvironment: 'sandbox',
    });
    for (const [, table] of productTables) {
      for (const op of Object.values(table)) {
        if (op.creates) expect(lookupOf(ctx, op.name), op.name).toBe(op.confirmedBy);
      }
    }
  });
});

/** A request each table operation's route would match, with plausible path values. */
function pathOf(op: TableOperation): string {
  const values: Record<string, string> = {
    referenceId: '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77',
    currency: 'EUR',
    msisdn: '46733123453',
    accountHolderIdType: 'msisdn',
    accountHolderId: '46733123453',
  };
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x1');
}

describe("the simulator's coverage of the tables", () => {
  it('serves every operation of every table (method and path)', async () => {
    const sim = createSimulator();
    const unserved: string[] = [];
    for (const table of Object.values(operationTables) as Table[]) {
      for (const op of Object.values(table)) {
        const response = await sim.fetch(`https://sim.example${pathOf(op)}`, { method: op.method });
        const text = await response.text();
        if (response.status === 405 || text.includes('No such endpoint')) {
          unserved.push(`${op.method} ${op.path}`);
        }
      }
    }
    expect(unserved).toEqual([]);
  });
});
