/**
 * The shape of src/, from the code's own imports (`import type` counts: it ties two
 * files together just the same): no import circle, each layer importing only what lies
 * below it, and no file over 300 lines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, folderGraph, importGraph, SRC, sourceFiles, specifiers } from './import-graph';

const graph = importGraph();

/** What an add-on may import besides itself. */
const ADD_ON_FLOOR = [
  'client-surface.ts',
  'contracts/',
  'errors.ts',
  'schemas/',
  'payments/',
  'catalogue/',
];

/**
 * What each folder may import besides itself. `src/contracts` is the ground floor: the
 * public contracts (options, journal, callback bus, token store, telemetry, health),
 * built on nothing but `errors.ts` and the written-out result types of `src/schemas`.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'contracts/': ['errors.ts', 'schemas/'],
  'schemas/': ['errors.ts'],
  /** The kernel of a payment's life, under batches, the outbox and the journal keeper. */
  'payments/': ['errors.ts', 'contracts/', 'schemas/', 'core/'],
  /** The drivers' catalogue: it reads the operation tables and runs the client's public face. */
  'catalogue/': [
    'errors.ts',
    'contracts/',
    'schemas/',
    'core/',
    'payments/',
    'client-surface.ts',
    'products/tables/',
    'products/endpoints.ts',
  ],
  /** What settles a call (journal, outcomes, callback bus): below the products that use it. */
  'settle/': ['errors.ts', 'contracts/', 'schemas/', 'core/', 'polling/', 'payments/failure.ts'],
  /**
   * The add-ons (thin drivers of the kernel): the client's public face, the contracts,
   * errors, schemas, the kernel and their own folder; nothing of the client's insides.
   */
  ...Object.fromEntries(
    ['batches/', 'outbox/', 'reconcile/', 'subscriptions/'].map((addOn) => [addOn, ADD_ON_FLOOR]),
  ),
  /** The job engines' core: the batch runner's item path, never a copy of it. */
  'engines/': [...ADD_ON_FLOOR, 'batches/'],
  /** What the Redis and PostgreSQL stores share: on the main entry's public surface only. */
  'stores/': ['index.ts'],
  /** The engine adapters: thin, on the engines' core. */
  'graphile-worker/': [...ADD_ON_FLOOR, 'engines/'],
  // ...and the types of the drivers it runs as jobs (an item, a pass's report).
  'bullmq/': [...ADD_ON_FLOOR, 'engines/', 'batches/types.ts', 'subscriptions/types.ts'],
};

/** What each folder must never import. */
const MUST_NOT_IMPORT: Record<string, readonly string[]> = {
  'core/': [
    'settle/',
    'products/',
    'auth/',
    'sandbox/',
    'client.ts',
    'index.ts',
    'redis/',
    'postgres/',
    'otel/',
    'testing/',
    'cli/',
    'callbacks/',
    'polling/',
  ],
};

/**
 * The package's other entries are built on the main one as a partner's code would be:
 * they import `momo-partner-sdk` (kept external by the build; `index.ts` here), and no file of src/ but
 * their own.
 */
const ENTRIES = ['redis/', 'postgres/', 'otel/', 'tenants/'];

/**
 * The package's public entries an add-on may import by name (postgres: the outbox relay),
 * and src/stores: what the Redis and PostgreSQL stores share, bundled into each, itself
 * built on the main entry's public surface only.
 */
const PUBLIC_ENTRIES = ['index.ts', 'outbox/index.ts'];
const SHARED_BY_STORES = 'stores/';

/** The drivers: entries of their own, taking a client; the main entry reaches none of them. */
const DRIVERS = [
  'batches/',
  'outbox/',
  'reconcile/',
  'subscriptions/',
  'graphile-worker/',
  'bullmq/',
  'engines/',
];

/** Every file `from` imports, directly or not (`import type` included). */
function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
  };
  visit(from);
  return seen;
}

function edges(from: string): [string, string][] {
  return [...graph]
    .filter(([file]) => file.startsWith(from))
    .flatMap(([file, targets]) => targets.map((target): [string, string] => [file, target]));
}

describe('the import graph of src', () => {
  it('is read from every kind of import, type-only ones included', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C } from './c';",
      "export { d } from './d';",
      "export type { E } from './e';",
      "export * from './f';",
      "type G = import('./g').G;",
      "const h = () => import('./h');",
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a', './b', './c', './d', './e', './f', './g', './h']);
    expect(graph.get('index.ts')).toContain('errors.ts');
  });

  it('has no import circle', () => {
    expect(circles(graph).map((circle) => circle.join(' > '))).toEqual([]);
  });

  it('has no import circle between folders either (a file at the top of src/ is one of its own)', () => {
    expect(circles(folderGraph(graph)).map((circle) => circle.join(' > '))).toEqual([]);
  });

  it('keeps each layer to what lies below it', () => {
    const wrong: string[] = [];
    for (const [from, allowed] of Object.entries(MAY_IMPORT)) {
      for (const [file, target] of edges(from)) {
        if (target.startsWith(from) || allowed.some((a) => target.startsWith(a))) continue;
        wrong.push(`${file} > ${target}`);
      }
    }
    for (const [from, forbidden] of Object.entries(MUST_NOT_IMPORT)) {
      for (const [file, target] of edges(from)) {
        if (forbidden.some((f) => target.startsWith(f))) wrong.push(`${file} > ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the redis, postgres, otel and tenants entries to the main entry's public surface", () => {
    const wrong = ENTRIES.flatMap((entry) =>
      edges(entry)
        .filter(
          ([, target]) =>
            !target.startsWith(entry) &&
            !PUBLIC_ENTRIES.includes(target) &&
            !target.startsWith(SHARED_BY_STORES),
        )
        .map(([file, target]) => `${file} > ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps the drivers out of the main entry: a partner who makes one payment ships none', () => {
    const reached = [...reachable('index.ts')].filter((file) =>
      DRIVERS.some((driver) => file.startsWith(driver)),
    );
    expect(reached).toEqual([]);
  });

  it("keeps the core's journal off the list kernel: settle/ reads only its failure classification", () => {
    // src/payments/failure.ts sits below the journal and the drivers alike (core, contracts, errors).
    const wrong = edges('settle/')
      .filter(([, target]) => target.startsWith('payments/') && target !== 'payments/failure.ts')
      .map(([file, target]) => `${file} > ${target}`);
    const below = (graph.get('payments/failure.ts') ?? []).filter(
      (target) => !['core/', 'contracts/', 'errors.ts'].some((floor) => target.startsWith(floor)),
    );
    expect([...wrong, ...below]).toEqual([]);
  });

  it('has no file over 300 lines', () => {
    const long = sourceFiles()
      .map((file) => ({
        file,
        lines: readFileSync(join(SRC, file), 'utf8').trimEnd().split('\n').length,
      }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
