/**
 * A module bundled into both the main entry and another entry (a driver, ./testing) is
 * two copies in the built package: its `Symbol('...')` two symbols, its classes two
 * classes. What one bundle makes and the other checks by such a symbol or by `instanceof`
 * is then never recognised (a batch's createRate went unapplied: its budget, made by
 * the batches bundle, was looked for by the main entry under another symbol and class).
 * From the sources every test shares one module graph and cannot see it, so this reads
 * the bundles' module lists (esbuild's metafile, bundled as the build bundles them,
 * scripts/entries.mjs) and the shared modules' code. A value that crosses an entry's
 * boundary uses `Symbol.for` and a check by shape, or lives in the main entry alone
 * (the error tree: the drivers import it by the package's name).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { DRIVER_ENTRIES, errorsFromMainEntry } from '../../scripts/entries.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

/** The entries bundled apart from the main entry, importing it by name. */
const OTHER_ENTRIES: Record<string, { entry: string; driver: boolean }> = {
  ...Object.fromEntries(
    Object.entries(DRIVER_ENTRIES).map(([name, entry]) => [name, { entry, driver: true }]),
  ),
  testing: { entry: 'src/testing/index.ts', driver: false },
  redis: { entry: 'src/redis/index.ts', driver: false },
  postgres: { entry: 'src/postgres/index.ts', driver: false },
  tenants: { entry: 'src/tenants/index.ts', driver: false },
  otel: { entry: 'src/otel/index.ts', driver: false },
};

/**
 * Shared modules whose symbol or classes are known never to cross a boundary: made and
 * checked inside one bundle. Each with why.
 */
const NEVER_CROSSES: Record<string, string> = {
  // INVALID: what a reader compiled by a bundle's `readerOf` answers, compared by that
  // bundle's `validate` alone (the readers are cached per bundle, never handed out).
  'src/schemas/reader.ts': 'Symbol: INVALID',
};

const PEERS = ['msw', 'redis', 'ioredis', 'pg', '@opentelemetry/api', 'bullmq', 'graphile-worker'];

/** The src/ modules in an entry's bundle. */
async function modulesOf(entry: string, driver: boolean): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // By name, before tsconfig.json's paths could map the package's name to src/ (as
    // `packages: 'external'` would); peers are the partner's own, never bundled.
    external: ['momo-partner-sdk', 'momo-partner-sdk/*', ...PEERS],
    ...(driver ? { plugins: [errorsFromMainEntry(ROOT)] } : {}),
  });
  // The modules that put code in the output: one tree-shaken away holds nothing there
  // (./testing reads the schemas but not their validation, which would throw errors.ts's).
  const outputs = Object.values(result.metafile.outputs);
  return outputs.flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([path, input]) => path.startsWith('src/') && input.bytesInOutput > 0)
      .map(([path]) => path),
  );
}

const code = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
/** A symbol of the module's own (`Symbol.for` is the registry's: one in every copy). */
const ownSymbol = (path: string) => /(?<![.\w])Symbol\(\s*['"`]/.test(code(path));
const classesOf = (path: string) =>
  [...code(path).matchAll(/\bclass (\w+)/g)].map((match) => match[1] as string);
const checkedClasses = (paths: string[]) =>
  new Set(
    paths.flatMap((path) => [...code(path).matchAll(/\binstanceof (\w+)/g)].map((m) => m[1])),
  );

/** What a shared module holds that two copies would not agree on. */
function identities(path: string, checked: Set<string | undefined>): string[] {
  return [
    ...(ownSymbol(path) ? ['Symbol'] : []),
    ...classesOf(path)
      .filter((name) => checked.has(name))
      .map((name) => `instanceof ${name}`),
  ];
}

describe('identity across the entries of the built package', () => {
  it.each(Object.keys(OTHER_ENTRIES))(
    'no module bundled into both the main entry and %s holds a Symbol() or a class checked by instanceof',
    async (name) => {
      const { entry, driver } = OTHER_ENTRIES[name] as { entry: string; driver: boolean };
      const main = await modulesOf('src/index.ts', false);
      const other = await modulesOf(entry, driver);
      const checked = checkedClasses([...main, ...other]);
      const found = other
        .filter((path) => main.includes(path) && !(path in NEVER_CROSSES))
        .flatMap((path) => identities(path, checked).map((what) => `${path}: ${what}`));
      expect(found).toEqual([]);
    },
    30_000,
  );

  it('each module listed as never crossing still holds what it is listed for', () => {
    for (const path of Object.keys(NEVER_CROSSES)) expect(ownSymbol(path)).toBe(true);
  });
});
