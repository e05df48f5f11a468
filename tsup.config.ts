import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', redis: 'src/redis/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    sourcemap: false,
    splitting: false,
    treeshake: true,
    // ./testing and ./redis import the client by the package's own name: one copy of it,
    // one error tree. Redis clients are the partner's own (optional peers), never bundled.
    external: ['momo-partner-sdk', 'redis', 'ioredis'],
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
