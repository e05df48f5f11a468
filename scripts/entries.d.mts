/** Types of entries.mjs for the build config and the tests. */
import type { Plugin } from 'esbuild';

export declare const DRIVER_ENTRIES: {
  batches: string;
  reconcile: string;
  subscriptions: string;
  outbox: string;
  bullmq: string;
  'graphile-worker': string;
};
export declare function errorsFromMainEntry(root: string): Plugin;
