/**
 * The partner journey every consumer runs (Node ESM and CJS, Jest, vitest, Bun, Deno),
 * written once as source text and saved as `journey.mjs` and `journey.cjs` in the
 * scratch consumer. It takes the two modules as the consumer loaded them, so each runner
 * resolves `momo-partner-sdk` its own way. msw is not installed in that consumer: the
 * simulator is served by `sim.fetch` and by `sim.listen()`.
 */
const source = `
async function journey(sdk, testing) {
  const { MomoClient, ValidationError, isValidationError } = sdk;
  const { createSimulator } = testing;
  const check = (ok, what) => {
    if (!ok) throw new Error('journey: ' + what);
  };
  const payee = { partyIdType: 'MSISDN', partyId: '46733123999' };
  check(typeof MomoClient === 'function', 'MomoClient is exported');
  // Error names survive bundling: guards and messages rely on them.
  for (const [name, value] of Object.entries(sdk)) {
    if (/^[A-Z]\\w*Error$/.test(name)) check(value.name === name, name + ' is called ' + value.name);
  }

  // 1. sim.fetch: a deposit awaited to SUCCESSFUL, bad input refused before sending.
  const sim = createSimulator({ settleMs: 10, consentIntervalSeconds: 0.01 });
  const momo = sim.client();
  const deposit = await momo.disbursement
    .deposit({ amount: '5', currency: 'EUR', externalId: 'pkg', payee })
    .wait();
  check(deposit.status === 'SUCCESSFUL', 'deposit SUCCESSFUL, got ' + deposit.status);
  const refused = await momo.disbursement
    .deposit({ amount: '-1', currency: 'EUR', payee })
    .catch((error) => error);
  check(refused instanceof ValidationError && isValidationError(refused), 'ValidationError identity');
  check(sim.transactions.length === 1, 'the refused deposit was not sent');
  const paid = await momo.collection
    .requestToPay({ amount: '7', currency: 'EUR', payer: payee })
    .wait();
  check(paid.status === 'SUCCESSFUL', 'request to pay SUCCESSFUL');
  const consent = await (
    await momo.consent.authorize({ msisdn: '46733123999', scope: 'profile', accessType: 'online' })
  ).wait();
  const info = await momo.remittance.getUserInfo({ consent });
  check(info.sub === '46733123999', 'user info read with the consent');

  // 2. sim.listen(): the same over real HTTP on loopback, through the runtime's own fetch.
  const server = await sim.listen();
  try {
    const overHttp = new MomoClient({
      ...sim.credentials,
      baseUrl: server.url,
      polling: { initialDelayMs: 5, maxDelayMs: 20 },
    });
    const balance = await overHttp.disbursement.getBalance();
    check(typeof balance.availableBalance === 'string', 'balance over HTTP');
    const overHttpDeposit = await overHttp.disbursement
      .deposit({ amount: '3', currency: 'EUR', payee })
      .wait();
    check(overHttpDeposit.status === 'SUCCESSFUL', 'deposit over HTTP SUCCESSFUL');
  } finally {
    await server.close();
  }

  // 3. msw is not installed here: only sim.handlers needs it, and it says so.
  let mswError;
  try {
    void sim.handlers;
  } catch (error) {
    mswError = error;
  }
  check(/npm install --save-dev msw/.test(String(mswError && mswError.message)), 'sim.handlers names msw');
  return 'ok';
}
`;

export const journeyEsm = `${source}\nexport { journey };\n`;
export const journeyCjs = `${source}\nmodule.exports = { journey };\n`;

/** A script per module system that runs the journey and prints `<label> ok`. */
export const runEsm = (label) => `import * as sdk from 'momo-partner-sdk';
import * as testing from 'momo-partner-sdk/testing';
import { journey } from './journey.mjs';
await journey(sdk, testing);
console.log(${JSON.stringify(label)} + ' ok');
`;

export const runCjs = (label) => `const { journey } = require('./journey.cjs');
journey(require('momo-partner-sdk'), require('momo-partner-sdk/testing')).then(
  () => console.log(${JSON.stringify(label)} + ' ok'),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
`;

/** The same two tests for both runners (each file brings its own imports). */
const suiteTests = `test('a deposit to SUCCESSFUL against sim.fetch', async () => {
  const sim = testing.createSimulator({ settleMs: 10 });
  const result = await sim.client().disbursement
    .deposit({ amount: '5', currency: 'EUR', payee: { partyIdType: 'MSISDN', partyId: '46733123999' } })
    .wait();
  expect(result.status).toBe('SUCCESSFUL');
});

test('the whole partner journey', async () => {
  await expect(journey(sdk, testing)).resolves.toBe('ok');
});
`;

/** Jest 29, default config (CommonJS, babel-jest, node environment). */
export const jestSuite = `const sdk = require('momo-partner-sdk');
const testing = require('momo-partner-sdk/testing');
const { journey } = require('../journey.cjs');

${suiteTests}`;

/** vitest, ESM. */
export const vitestSuite = `import * as sdk from 'momo-partner-sdk';
import * as testing from 'momo-partner-sdk/testing';
import { expect, test } from 'vitest';
import { journey } from '../journey.mjs';

${suiteTests}`;

// ./redis loads without any Redis client installed, and shares the main entry's errors.
const redisCheck = `
  if (typeof createRedisState !== 'function') throw new Error('no createRedisState');
  let refused;
  try { new RedisTokenStore({}); } catch (e) { refused = e; }
  if (!(refused instanceof ValidationError) || refused.field !== 'client') throw new Error('./redis has its own error tree');
`;
export const redisEsm = `import { ValidationError } from 'momo-partner-sdk';
import { RedisTokenStore, createRedisState } from 'momo-partner-sdk/redis';
${redisCheck}
console.log('redis esm ok');
`;
export const redisCjs = `const { ValidationError } = require('momo-partner-sdk');
const { RedisTokenStore, createRedisState } = require('momo-partner-sdk/redis');
${redisCheck}
console.log('redis cjs ok');
`;

// The drivers (./batches, ./reconcile, ./subscriptions, ./outbox, ./bullmq, ./graphile-worker)
// take the main entry's client and throw the main entry's errors (one error tree, imported by name).
const driversCheck = `
  const momo = createSimulator().client();
  const refusals = [
    () => new Batches(momo).run([], { id: '', store: memoryBatchStore() }),
    () => reconcile(momo, [{ referenceId: 'x', operation: 'disbursement.deposit' }]),
    async () => new Subscriptions(momo, { store: memorySubscriptionStore(), secret: 'short' }),
    () => addPayments({}, { batch: '', items: [], secret: 'sixteen-chars-at-least' }),
    // ./graphile-worker loads without graphile-worker installed (an optional peer).
    () => addGraphileJobs({ addJobs: async () => [] }, { batch: 'b', items: [], secret: 'short' }),
  ];
  for (const refuse of refusals) {
    let refused;
    try { await refuse(); } catch (e) { refused = e; }
    if (!(refused instanceof ValidationError)) throw new Error('a driver has its own error tree: ' + refused);
  }
  if (typeof startOutboxRelay !== 'function') throw new Error('no startOutboxRelay');
`;
export const driversEsm = `import { ValidationError } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { addPayments } from 'momo-partner-sdk/bullmq';
import { addPayments as addGraphileJobs } from 'momo-partner-sdk/graphile-worker';
import { startOutboxRelay } from 'momo-partner-sdk/outbox';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { Subscriptions, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
${driversCheck}
console.log('drivers esm ok');
`;
export const driversCjs = `const { ValidationError } = require('momo-partner-sdk');
const { Batches, memoryBatchStore } = require('momo-partner-sdk/batches');
const { addPayments } = require('momo-partner-sdk/bullmq');
const { addPayments: addGraphileJobs } = require('momo-partner-sdk/graphile-worker');
const { startOutboxRelay } = require('momo-partner-sdk/outbox');
const { reconcile } = require('momo-partner-sdk/reconcile');
const { Subscriptions, memorySubscriptionStore } = require('momo-partner-sdk/subscriptions');
const { createSimulator } = require('momo-partner-sdk/testing');
(async () => {
${driversCheck}
console.log('drivers cjs ok');
})().catch((e) => { console.error(e); process.exit(1); });
`;

// ./postgres loads without pg installed, and shares the main entry's errors.
const postgresCheck = `
  if (typeof createPostgresState !== 'function') throw new Error('no createPostgresState');
  let refused;
  try { createPostgresState({}); } catch (e) { refused = e; }
  if (!(refused instanceof ValidationError) || refused.field !== 'pool') throw new Error('./postgres has its own error tree');
`;
export const postgresEsm = `import { ValidationError } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
${postgresCheck}
console.log('postgres esm ok');
`;
export const postgresCjs = `const { ValidationError } = require('momo-partner-sdk');
const { createPostgresState } = require('momo-partner-sdk/postgres');
${postgresCheck}
console.log('postgres cjs ok');
`;
