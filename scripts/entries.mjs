/**
 * The package's driver entries (momo-partner-sdk/batches, /reconcile, /subscriptions,
 * /outbox) and how they are bundled: each one alone, taking a client, with the client's
 * error tree imported from the main entry by the package's name. Used by the build
 * (tsup.config.ts), the bundled-package audit, the entry-size test and the bench, so all
 * four bundle the drivers the same way.
 */
import { dirname, resolve } from 'node:path';

/** Sub-path name -> source entry, relative to the repository root. */
export const DRIVER_ENTRIES = {
  batches: 'src/batches/index.ts',
  reconcile: 'src/reconcile/index.ts',
  subscriptions: 'src/subscriptions/index.ts',
  outbox: 'src/outbox/index.ts',
  bullmq: 'src/bullmq/index.ts',
  'graphile-worker': 'src/graphile-worker/index.ts',
};

/**
 * An esbuild plugin: a driver's relative import of src/errors.ts becomes an import of
 * 'momo-partner-sdk'. A partner's `instanceof ValidationError` (the class they import from
 * the main entry) must hold for an error a driver throws, so the drivers share the main
 * entry's one copy of the error tree instead of bundling their own; the rest of what they
 * use (the payments kernel, schemas) holds no identity and is bundled into each driver.
 */
export function errorsFromMainEntry(root) {
  const errors = resolve(root, 'src/errors.ts');
  return {
    name: 'errors-from-main-entry',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/.*errors$/ }, (args) => {
        const target = resolve(dirname(args.importer), args.path);
        return `${target}.ts` === errors ? { path: 'momo-partner-sdk', external: true } : undefined;
      });
    },
  };
}
