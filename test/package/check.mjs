// Imports the built package the way a partner would, from a scratch consumer outside
// the project: ESM import and CJS require of both entry points, and a deposit, a request
// to pay and the consent flow run against the simulator through the built code.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'momo-consumer-'));
try {
  mkdirSync(join(scratch, 'node_modules'));
  symlinkSync(root, join(scratch, 'node_modules', 'momo-partner-sdk'), 'dir');

  const journey = `
    const sim = createSimulator({ settleMs: 10, consentIntervalSeconds: 0.01 });
    const momo = sim.client();
    const result = await momo.disbursement
      .deposit({ amount: '5', currency: 'EUR', externalId: 'pkg', payee: { partyIdType: 'MSISDN', partyId: '46733123999' } })
      .wait();
    if (result.status !== 'SUCCESSFUL') throw new Error('deposit did not succeed: ' + result.status);
    const error = await momo.disbursement.deposit({ amount: '-1', currency: 'EUR', payee: { partyIdType: 'MSISDN', partyId: '46733123999' } }).catch((e) => e);
    if (!(error instanceof ValidationError) || !isValidationError(error)) throw new Error('ValidationError class identity broken');
    if (sim.transactions.length !== 1) throw new Error('expected one transaction');
    const paid = await momo.collection
      .requestToPay({ amount: '7', currency: 'EUR', payer: { partyIdType: 'MSISDN', partyId: '46733123999' } })
      .wait();
    if (paid.status !== 'SUCCESSFUL') throw new Error('request to pay did not succeed');
    const consent = await (await momo.consent.authorize({ msisdn: '46733123999', scope: 'profile', accessType: 'online' })).wait();
    const info = await momo.remittance.getUserInfo({ consent });
    if (info.sub !== '46733123999') throw new Error('user info with consent not read');
  `;
  // ./redis loads without any Redis client installed, and shares the main entry's errors.
  const redisEntry = `
    if (typeof createRedisState !== 'function') throw new Error('no createRedisState');
    let refused;
    try { new RedisTokenStore({}); } catch (e) { refused = e; }
    if (!(refused instanceof ValidationError) || refused.field !== 'client') throw new Error('./redis has its own error tree');
  `;
  writeFileSync(
    join(scratch, 'esm.mjs'),
    `import { MomoClient, ValidationError, isValidationError } from 'momo-partner-sdk';
     import { createSimulator } from 'momo-partner-sdk/testing';
     import * as sdk from 'momo-partner-sdk';
     import { RedisTokenStore, createRedisState } from 'momo-partner-sdk/redis';
     if (typeof MomoClient !== 'function') throw new Error('no MomoClient');
     ${redisEntry}
     // Error names survive bundling: guards and messages rely on them.
     for (const [name, value] of Object.entries(sdk)) {
       if (/^[A-Z]\\w*Error$/.test(name) && value.name !== name) throw new Error(name + ' is called ' + value.name);
     }
     ${journey}
     console.log('esm ok');`,
  );
  writeFileSync(
    join(scratch, 'cjs.cjs'),
    `const { MomoClient, ValidationError, isValidationError } = require('momo-partner-sdk');
     const { createSimulator } = require('momo-partner-sdk/testing');
     const { RedisTokenStore, createRedisState } = require('momo-partner-sdk/redis');
     if (typeof MomoClient !== 'function') throw new Error('no MomoClient');
     ${redisEntry}
     (async () => { ${journey} console.log('cjs ok'); })().catch((e) => { console.error(e); process.exit(1); });`,
  );
  for (const file of ['esm.mjs', 'cjs.cjs']) {
    execFileSync(process.execPath, [file], { cwd: scratch, stdio: 'inherit' });
  }

  // What would be published: only dist/, README, CHANGELOG, package.json.
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const stray = pack.files
    .map((f) => f.path)
    .filter((p) => !/^(dist\/|README\.md$|CHANGELOG\.md$|package\.json$|LICENSE$)/.test(p));
  if (stray.length > 0) throw new Error(`files that should not ship: ${stray.join(', ')}`);
  console.log(
    `package ok: ${pack.files.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
