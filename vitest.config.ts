import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^momo-partner-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^momo-partner-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^momo-partner-sdk\/postgres$/, replacement: src('postgres/index.ts') },
      { find: /^momo-partner-sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^momo-partner-sdk\/batches$/, replacement: src('batches/index.ts') },
      { find: /^momo-partner-sdk\/reconcile$/, replacement: src('reconcile/index.ts') },
      { find: /^momo-partner-sdk\/subscriptions$/, replacement: src('subscriptions/index.ts') },
      { find: /^momo-partner-sdk\/outbox$/, replacement: src('outbox/index.ts') },
      { find: /^momo-partner-sdk\/tenants$/, replacement: src('tenants/index.ts') },
      { find: /^momo-partner-sdk\/bullmq$/, replacement: src('bullmq/index.ts') },
      {
        find: /^momo-partner-sdk\/graphile-worker$/,
        replacement: src('graphile-worker/index.ts'),
      },
      { find: /^momo-partner-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
    testTimeout: 20_000,
    setupFiles: ['test/support/preload.ts'],
  },
});
