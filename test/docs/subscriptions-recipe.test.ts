import { resolve } from 'node:path';
import { memorySubscriptionStore } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { collectSnippets } from '../support/snippets';

// docs/subscriptions.md's recipe, run as written: its two imports handed in, its console
// collected. The page cannot drift from what the SDK does.
const root = resolve(import.meta.dirname, '../..');
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/subscriptions.md') && s.heading.startsWith('Recipe'),
);

type Recipe = (
  memory: typeof memorySubscriptionStore,
  simulator: typeof createSimulator,
  console: { log(...values: unknown[]): void },
) => Promise<void>;

function compile(code: string): Recipe {
  const lines = code.split('\n');
  expect(lines.filter((line) => line.startsWith('import '))).toEqual([
    "import { memorySubscriptionStore } from 'momo-partner-sdk';",
    "import { createSimulator } from 'momo-partner-sdk/testing';",
  ]);
  const body = lines.filter((line) => !line.startsWith('import ')).join('\n');
  const wrapped = `async function recipe(memorySubscriptionStore, createSimulator, console) {\n${body}\n}`;
  const { outputText } = ts.transpileModule(wrapped, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return new Function(`${outputText}\nreturn recipe;`)() as Recipe;
}

describe('docs/subscriptions.md recipe', () => {
  it('a year of a gym membership: two empty wallets, collected on the third, renewed once', async () => {
    const logged: string[] = [];
    const run = compile(recipe?.code ?? '');
    await run(memorySubscriptionStore, createSimulator, {
      log: (...values) => logged.push(values.join(' ').trim()),
    });
    expect(logged.slice(0, 4)).toEqual([
      'member-42 0 1 FAILED NOT_ENOUGH_FUNDS',
      'member-42 0 2 FAILED NOT_ENOUGH_FUNDS',
      'member-42 0 3 SUCCESSFUL',
      'member-42 1 1 SUCCESSFUL',
    ]);
    expect(logged.filter((line) => line.endsWith('SUCCESSFUL'))).toHaveLength(13);
    expect(logged.at(-1)).toBe('ACTIVE 13 1');
  }, 60_000);
});
