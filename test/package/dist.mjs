/**
 * What the built files may import. The client's dependencies are bundled in (they are
 * ESM-only, and a CommonJS consumer under Jest could not require them), so the entries
 * import only Node built-ins; ./testing and the drivers (./batches, ./reconcile,
 * ./subscriptions, ./outbox) also import the client by the package's name
 * and msw (on demand); the declarations import nothing a consumer may lack; and no zod
 * locale is bundled.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ALLOWED = {
  'index.js': [],
  'index.cjs': [],
  'testing.js': ['momo-partner-sdk', 'msw'],
  'testing.cjs': ['momo-partner-sdk', 'msw'],
  'index.d.ts': [],
  'index.d.cts': [],
  'testing.d.ts': ['momo-partner-sdk', 'msw'],
  'testing.d.cts': ['momo-partner-sdk', 'msw'],
  // ./otel: the partner's own @opentelemetry/api (an optional peer); the client's types by name.
  'otel.js': ['@opentelemetry/api'],
  'otel.cjs': ['@opentelemetry/api'],
  'otel.d.ts': ['@opentelemetry/api', 'momo-partner-sdk'],
  'otel.d.cts': ['@opentelemetry/api', 'momo-partner-sdk'],
  // ./postgres: never pg itself (the partner's Pool is passed in); the client by name, and
  // the outbox relay it starts by its entry's name (one copy of the driver).
  'postgres.js': ['momo-partner-sdk', 'momo-partner-sdk/outbox', 'node:crypto', 'crypto'],
  'postgres.cjs': ['momo-partner-sdk', 'momo-partner-sdk/outbox', 'node:crypto', 'crypto'],
  'postgres.d.ts': ['momo-partner-sdk'],
  'postgres.d.cts': ['momo-partner-sdk'],
  // ./tenants: the client by name (one MomoClient, one error tree); node:crypto hashes
  // subscription keys into the rate budget's scopes.
  'tenants.js': ['momo-partner-sdk', 'node:crypto', 'crypto'],
  'tenants.cjs': ['momo-partner-sdk', 'node:crypto', 'crypto'],
  'tenants.d.ts': ['momo-partner-sdk'],
  'tenants.d.cts': ['momo-partner-sdk'],
  // The drivers: the main entry by name (its error tree), nothing else; their declarations
  // share the main entry's declaration files (relative imports).
  // ./graphile-worker: never graphile-worker itself (the partner's utilities are passed in);
  // node:crypto for the engine job ids of the core (src/engines).
  'graphile-worker.js': ['momo-partner-sdk', 'node:crypto', 'crypto'],
  'graphile-worker.cjs': ['momo-partner-sdk', 'node:crypto', 'crypto'],
  'graphile-worker.d.ts': [],
  'graphile-worker.d.cts': [],
  ...Object.fromEntries(
    ['batches', 'reconcile', 'subscriptions', 'outbox', 'bullmq'].flatMap((name) => [
      [`${name}.js`, ['momo-partner-sdk']],
      [`${name}.cjs`, ['momo-partner-sdk']],
      [`${name}.d.ts`, []],
      [`${name}.d.cts`, []],
    ]),
  ),
};

/** Node built-ins, with or without `node:` (tsup strips it in the CommonJS build). */
const BUILTIN = /^(node:)?(http|https|module|net|url|util|stream|events|zlib|tls|dns|buffer)$/;

const BARE = `["']([\\w@][\\w@/.:-]*)["']`;
const SPECIFIERS = [
  new RegExp(`\\bfrom\\s*${BARE}`, 'g'),
  new RegExp(`\\bimport\\s*${BARE}`, 'g'),
  new RegExp(`\\brequire\\(\\s*${BARE}\\s*\\)`, 'g'),
  new RegExp(`\\bimport\\(\\s*${BARE}\\s*\\)`, 'g'),
];

/**
 * Default messages of three zod locales (German, Spanish, English): none may be bundled.
 * The SDK words its own messages (schemas/validate.ts) and loads no zod locale.
 */
const LOCALE_MARKERS = ['Ungültige Eingabe', 'Entrada inválida', 'Invalid input: expected'];

export function checkDistImports(root) {
  const found = [];
  for (const [file, allowed] of Object.entries(ALLOWED)) {
    const text = readFileSync(join(root, 'dist', file), 'utf8');
    const locale = LOCALE_MARKERS.find((marker) => text.includes(marker));
    if (locale) throw new Error(`dist/${file} contains zod locale text ("${locale}")`);
    const specifiers = new Set(SPECIFIERS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));
    const stray = [...specifiers].filter((s) => !allowed.includes(s) && !BUILTIN.test(s));
    if (stray.length > 0) {
      throw new Error(
        `dist/${file} imports ${stray.join(', ')}: bundle it (tsup noExternal) or make it a dependency on purpose`,
      );
    }
    found.push(`${file}: ${[...specifiers].join(', ') || 'nothing'}`);
  }
  return found.join('; ');
}

/** Only dist/, docs/ (and docs/postgres.sql), the checkout and framework examples, README, CHANGELOG, LICENSE and package.json are published. */
export function checkPackedFiles(pack) {
  const stray = pack.files
    .map((f) => f.path)
    .filter(
      (p) =>
        !/^(dist\/|docs\/(images\/)?[\w-]+\.(md|png)$|docs\/postgres\.sql$|examples\/(checkout|frameworks)\/[\w.-]+$|README\.md$|CHANGELOG\.md$|package\.json$|LICENSE$)/.test(
          p,
        ),
    );
  if (stray.length > 0) throw new Error(`files that should not ship: ${stray.join(', ')}`);
  return `${pack.files.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed`;
}
