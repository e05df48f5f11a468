import { defineConfig } from 'tsup';

/**
 * ky, uuid, zod and p-retry are bundled into both builds: they are ESM-only, so a CommonJS
 * consumer (Jest's default mode) could not require them, and a bundled, tree-shaken
 * copy imports in less than half the time (measurements: docs/size-and-startup.md).
 * Nothing is required from them at run time, so they are devDependencies.
 */
const bundledDependencies = ['ky', 'uuid', 'zod', 'p-retry', 'is-network-error'];

export default defineConfig([
  {
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    sourcemap: false,
    splitting: false,
    treeshake: true,
    // import.meta.url in the CommonJS build (./testing loads msw on demand from it).
    shims: true,
    noExternal: bundledDependencies,
    // ./testing imports the client by the package's own name: one copy of it, one error
    // tree. msw is the partner's own (an optional peer), loaded only by `sim.handlers`.
    external: ['momo-partner-sdk', 'msw'],
  },
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node20',
    noExternal: bundledDependencies,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
