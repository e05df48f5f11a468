import { resolve } from 'node:path';
import { defineConfig } from 'tsup';
import { DRIVER_ENTRIES, errorsFromMainEntry } from './scripts/entries.mjs';

/**
 * ky, uuid, zod and p-retry are bundled into both builds: they are ESM-only, so a CommonJS
 * consumer (Jest's default mode) could not require them, and a bundled, tree-shaken
 * copy imports in less than half the time (measurements: docs/size-and-startup.md).
 * Nothing is required from them at run time, so they are devDependencies.
 */
const bundledDependencies = ['ky', 'uuid', 'zod', 'p-retry', 'is-network-error'];

/**
 * Whitespace and syntax minified, names kept: a partner's stack traces still name the
 * SDK's functions, and the import parses a third fewer bytes (about 3 ms of a 15-18 ms
 * import on Node 20; docs/size-and-startup.md).
 */
const compact = { minifyWhitespace: true, minifySyntax: true };

const library = {
  format: ['esm', 'cjs'] as ('esm' | 'cjs')[],
  dts: true,
  target: 'node20',
  ...compact,
  sourcemap: false,
  splitting: false,
  treeshake: true,
  noExternal: bundledDependencies,
  // ./testing and ./redis import the client by the package's own name: one copy of it,
  // one error tree. msw is the partner's own (an optional peer), loaded only by `sim.handlers`.
  external: ['momo-partner-sdk', 'msw'],
};

/**
 * The main entry's declarations are built together with the drivers' (one rollup run, so
 * one shared declaration file): a driver's `new Batches(momo)` takes the very
 * `Disbursement`, `MomoClient` and error classes the main entry declares. Declared twice,
 * classes with private fields would be two unrelated types to a partner's compiler.
 */
const declarations = { entry: { index: 'src/index.ts', ...DRIVER_ENTRIES } };

export default defineConfig([
  {
    // The main entry imports no Node module at load time (web runtimes load it too), so
    // no shims: they would add `import 'path'` and `import 'url'`. In ESM, ky (loaded only
    // when a request goes through fetch) is a chunk of its own: the Node path never parses it.
    entry: { index: 'src/index.ts' },
    ...library,
    format: ['esm'],
    dts: declarations,
    splitting: true,
    // No `clean` here: tsup's clean also deletes every declaration in dist/ when this
    // config's declaration pass starts, which, as it now builds five entries, can come
    // after ./testing's declarations were written (they went missing). `npm run build`
    // empties dist/ first instead.
  },
  {
    // CommonJS has no chunks: one file, ky behind a lazy initializer.
    entry: { index: 'src/index.ts' },
    ...library,
    format: ['cjs'],
    dts: declarations,
  },
  {
    // The drivers (batches, reconcile, subscriptions, outbox): each a file of its own
    // taking a client, the error tree imported from the main entry by name
    // (scripts/entries.mjs); their declarations come with the main entry's, above.
    entry: DRIVER_ENTRIES,
    ...library,
    dts: false,
    esbuildPlugins: [errorsFromMainEntry(resolve(import.meta.dirname))],
  },
  {
    // Redis clients are the partner's own (optional peers), never bundled.
    entry: { redis: 'src/redis/index.ts' },
    ...library,
    external: ['momo-partner-sdk', 'redis', 'ioredis'],
  },
  {
    // The pg Pool is the partner's own (an optional peer): the SDK never imports pg.
    entry: { postgres: 'src/postgres/index.ts' },
    ...library,
    external: ['momo-partner-sdk', 'pg'],
  },
  {
    // The tenant layer takes the client by name: one MomoClient, one error tree.
    entry: { tenants: 'src/tenants/index.ts' },
    ...library,
  },
  {
    // @opentelemetry/api is the partner's own (an optional peer): one copy, one global registry.
    entry: { otel: 'src/otel/index.ts' },
    ...library,
    external: ['momo-partner-sdk', '@opentelemetry/api'],
  },
  {
    entry: { testing: 'src/testing/index.ts' },
    ...library,
    // import.meta.url in the CommonJS build (./testing loads msw on demand from it).
    shims: true,
  },
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node20',
    ...compact,
    noExternal: bundledDependencies,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
