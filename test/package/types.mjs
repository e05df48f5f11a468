/**
 * Type checks of the packed declarations, as a partner's compiler sees them:
 * `moduleResolution: node` (the old resolver, which reads `typesVersions`, not
 * `exports`) and `nodenext`, both with exactOptionalPropertyTypes and without
 * skipLibCheck; the README's configuration and first-payment samples, verbatim;
 * examples/checkout with its own tsconfig.json (nodenext); and `./testing` in a project
 * without msw (an optional peer: its declarations must not need msw's types).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const consumerSource = `import { MomoClient, type TransactionResult } from 'momo-partner-sdk';
import { Batches, type BatchReport, memoryBatchStore } from 'momo-partner-sdk/batches';
import { paymentProcessor, type PaymentJobResult } from 'momo-partner-sdk/bullmq';
import { startOutboxRelay } from 'momo-partner-sdk/outbox';
import { reconcile, type ReconcileResult } from 'momo-partner-sdk/reconcile';
import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator, type Simulator } from 'momo-partner-sdk/testing';

const sim: Simulator = createSimulator();
// The tenant layer makes the main entry's MomoClient: one declaration of it, shared.
export const tenants = new Tenants({ resolve: () => sim.credentials });
export const tenantClient: Promise<MomoClient> = tenants.client('merchant-42');
const momo: MomoClient = sim.client();
export const handlers = sim.handlers;
export async function deposit(): Promise<TransactionResult['status']> {
  const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
  const result = await momo.disbursement.deposit({ amount: '1', currency: 'EUR', payee }).wait();
  return result.status;
}
// The drivers take the main entry's client: one declaration of it, shared.
export const batches: Batches = new Batches(momo);
export const payList = (): Promise<BatchReport> =>
  batches.run([], { id: 'payday', store: memoryBatchStore() });
export const books: Promise<ReconcileResult<{ referenceId: string; operation: 'disbursement.deposit' }>> =
  reconcile(momo, [{ referenceId: '0f8fad5b-d9cb-469f-a165-70867728950e', operation: 'disbursement.deposit' }]);
export const subs = new Subscriptions(momo, { store: memorySubscriptionStore(), secret: 'sixteen-chars-at-least' });
export const relay = startOutboxRelay;
export const payJob: (job: { name: string; data: unknown; updateData(d: unknown): Promise<void>; moveToDelayed(t: number, token?: string): Promise<void> }) => Promise<PaymentJobResult> =
  paymentProcessor(momo, { secret: 'sixteen-chars-at-least', store: memoryBatchStore() });
`;

const testingSource = `import { createSimulator, type Simulator } from 'momo-partner-sdk/testing';

const sim: Simulator = createSimulator();
export const handlers = sim.handlers;
export const fetchIt: typeof fetch = sim.fetch;
`;

const COMMON = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
};

/** The first ```ts block under a `## heading` (or a page's `# heading`) of `file`, verbatim. */
export function readmeSample(root, heading, file = 'README.md') {
  const text = `\n${readFileSync(join(root, file), 'utf8')}`;
  const found = [`\n## ${heading}\n`, `\n# ${heading}\n`].map((h) => text.indexOf(h));
  const start = Math.max(...found);
  const block = start < 0 ? null : /```ts\n([\s\S]*?)```/.exec(text.slice(start));
  if (!block) throw new Error(`${file} has no \`\`\`ts block under "${heading}"`);
  return block[1];
}

/** Writes the sources and configs into a consumer that has the package; [label, run] pairs. */
export function typeChecks(root, dir) {
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  // A Node partner has @types/node; msw types are what `sim.handlers` is typed with.
  symlinkSync(join(root, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');
  symlinkSync(join(root, 'node_modules/msw'), join(dir, 'node_modules/msw'), 'dir');
  writeFileSync(join(dir, 'consumer.ts'), consumerSource);
  writeFileSync(join(dir, 'consumer.mts'), consumerSource);
  writeFileSync(
    join(dir, 'readme-configuration.ts'),
    readmeSample(root, 'Configuration', 'docs/configuration.md'),
  );
  // Top-level await: an ES module, compiled under nodenext only.
  writeFileSync(join(dir, 'readme-first-payment.mts'), readmeSample(root, 'First payment'));
  const configs = {
    'tsconfig.node10.json': {
      compilerOptions: { ...COMMON, module: 'commonjs', moduleResolution: 'node' },
      files: ['consumer.ts', 'readme-configuration.ts'],
    },
    'tsconfig.nodenext.json': {
      compilerOptions: { ...COMMON, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['consumer.ts', 'consumer.mts', 'readme-configuration.ts', 'readme-first-payment.mts'],
    },
  };
  return [
    ...configChecks(root, dir, configs),
    ['examples/checkout, its tsconfig.json (nodenext)', () => checkoutTypes(root, dir)],
  ];
}

/** Each config's tsc run in `dir` as a [label, run] pair. */
function configChecks(root, dir, configs, detail = readmeSamples) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  return Object.entries(configs).map(([file, config]) => {
    writeFileSync(join(dir, file), JSON.stringify(config, null, 2));
    const label = `TypeScript, ${config.compilerOptions.moduleResolution} resolution`;
    return [
      label,
      () => {
        execFileSync(process.execPath, [tsc, '-p', file], { cwd: dir, stdio: 'pipe' });
        return detail(config);
      },
    ];
  });
}

function readmeSamples(config) {
  const samples = config.files.filter((f) => f.startsWith('readme-')).join(', ');
  return `both entries and ${samples}, exactOptionalPropertyTypes`;
}

/** examples/checkout as a partner copies it (ESM), type-checked with its own tsconfig.json. */
function checkoutTypes(root, dir) {
  const checkout = join(dir, 'checkout');
  mkdirSync(checkout);
  for (const file of ['app.ts', 'app.test.ts', 'tsconfig.json']) {
    copyFileSync(join(root, 'examples/checkout', file), join(checkout, file));
  }
  writeFileSync(join(checkout, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(root, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: checkout, stdio: 'pipe' });
  return 'app.ts and app.test.ts, moduleResolution nodenext, no skipLibCheck';
}

/**
 * `./testing` type-checked in a consumer without msw (and with @types/node, as a Node
 * partner has), under both resolutions and without skipLibCheck; [label, run] pairs.
 */
export function testingWithoutMsw(root, dir) {
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(root, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');
  writeFileSync(join(dir, 'testing-no-msw.ts'), testingSource);
  writeFileSync(join(dir, 'testing-no-msw.mts'), testingSource);
  const configs = {
    'tsconfig.no-msw.node10.json': {
      compilerOptions: { ...COMMON, module: 'commonjs', moduleResolution: 'node' },
      files: ['testing-no-msw.ts'],
    },
    'tsconfig.no-msw.nodenext.json': {
      compilerOptions: { ...COMMON, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['testing-no-msw.ts', 'testing-no-msw.mts'],
    },
  };
  const detail = (config) => `${config.files.join(', ')}: no msw types needed, no skipLibCheck`;
  return configChecks(root, dir, configs, detail).map(([label, run]) => [
    `${label}, ./testing without msw installed`,
    run,
  ]);
}
