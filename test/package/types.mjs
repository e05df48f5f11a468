/**
 * Type checks of the packed declarations, as a partner's compiler sees them:
 * `moduleResolution: node` (the old resolver, which reads `typesVersions`, not
 * `exports`) and `nodenext`, both with exactOptionalPropertyTypes and without
 * skipLibCheck; and the README's configuration sample, extracted verbatim.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const consumerSource = `import { MomoClient, type TransactionResult } from 'momo-partner-sdk';
import { createSimulator, type Simulator } from 'momo-partner-sdk/testing';

const sim: Simulator = createSimulator();
const momo: MomoClient = sim.client();
export const handlers = sim.handlers;
export async function deposit(): Promise<TransactionResult['status']> {
  const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
  const result = await momo.disbursement.deposit({ amount: '1', currency: 'EUR', payee }).wait();
  return result.status;
}
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

/** The ```ts block under "## Configuration" in README.md. */
export function readmeConfigurationSample(root) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```ts block under "## Configuration"');
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
  writeFileSync(join(dir, 'readme-configuration.ts'), readmeConfigurationSample(root));
  const configs = {
    'tsconfig.node10.json': {
      compilerOptions: { ...COMMON, module: 'commonjs', moduleResolution: 'node' },
      files: ['consumer.ts', 'readme-configuration.ts'],
    },
    'tsconfig.nodenext.json': {
      compilerOptions: { ...COMMON, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['consumer.ts', 'consumer.mts', 'readme-configuration.ts'],
    },
  };
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  return Object.entries(configs).map(([file, config]) => {
    writeFileSync(join(dir, file), JSON.stringify(config, null, 2));
    const label = `TypeScript, ${config.compilerOptions.moduleResolution} resolution`;
    return [
      label,
      () => {
        execFileSync(process.execPath, [tsc, '-p', file], { cwd: dir, stdio: 'pipe' });
        return 'both entries, README configuration sample, exactOptionalPropertyTypes';
      },
    ];
  });
}
