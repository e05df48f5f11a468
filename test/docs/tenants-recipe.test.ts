import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as main from 'momo-partner-sdk';
import * as batches from 'momo-partner-sdk/batches';
import * as reconcile from 'momo-partner-sdk/reconcile';
import * as tenants from 'momo-partner-sdk/tenants';
import type { Simulator } from 'momo-partner-sdk/testing';
import * as testing from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { collectSnippets, evalSnippet } from '../support/snippets';

// docs/tenants.md's recipe, run as written: its imports handed in (the simulator kept, to
// check at the provider whose credentials each payment went out with), its console
// collected and compared with the output the page shows.
const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(root, 'docs/tenants.md'), 'utf8');
const section = /^## Recipe[^\n]*\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
const printed = /```text\n([\s\S]*?)```/.exec(section)?.[1]?.trim().split('\n') ?? [];
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/tenants.md') && s.heading.startsWith('Recipe'),
);

it("docs/tenants.md recipe: a merchant's checkout, a settlement and a reconcile per merchant", async () => {
  expect(recipe?.code).toContain("tenants.client('merchant-1')");
  const logged: string[] = [];
  const sims: Simulator[] = [];
  await evalSnippet(
    recipe as NonNullable<typeof recipe>,
    {
      'momo-partner-sdk': main,
      'momo-partner-sdk/batches': batches,
      'momo-partner-sdk/reconcile': reconcile,
      'momo-partner-sdk/tenants': tenants,
      'momo-partner-sdk/testing': {
        ...testing,
        createSimulator: (...args: Parameters<typeof testing.createSimulator>) => {
          const sim = testing.createSimulator(...args);
          sims.push(sim);
          return sim;
        },
      },
    },
    { console: { log: (...values: unknown[]) => logged.push(values.join(' ').trim()) } },
  ).catch((error: unknown) => {
    throw new Error(`the recipe threw after printing ${JSON.stringify(logged)}`, { cause: error });
  });
  expect(printed.length).toBeGreaterThan(5);
  expect(logged).toEqual(printed);
  // Each payment held under the merchant whose credentials sent it.
  const held = sims[0]?.transactions ?? [];
  expect(held).toHaveLength(7);
  for (const t of held) {
    const externalId = (t.body as { externalId?: string }).externalId ?? '';
    const merchant = externalId.startsWith('order-')
      ? 'merchant-1'
      : externalId.split('-seller')[0];
    expect(t.partner).toBe(merchant);
  }
});
