/**
 * node bench/tenants.mjs (part of npm run bench): one shared rate budget for many tenants
 * (DESIGN 10.4, issue 40). The provider (the SDK's simulator with 50 partners, one key
 * each) in a process of its own counts every request it receives, by subscription key;
 * 8 aggregator processes each run a MomoClient per tenant on one Redis, each given
 * `tenantRateBudget(shared.rateBudget, { globalLimits: { lookupRate: 150 } })` with
 * `createRate: 20` and `lookupRate: 100` per key.
 *
 * 1. Caps: every process sends 3 deposits and 2 balance lookups per tenant at once
 *    (1,200 creating calls, 800 lookups). At the provider, the most creating calls of one
 *    key and the most lookups of all keys in any sliding second (1,000 ms, arrival times
 *    at the provider), against 20 and 150 (target: at most 2% above). The provider's process
 *    runs at a higher priority (the repository's bench/lib/provider-priority.mjs says why).
 * 2. Fairness: one tenant's 100,000 deposits queued (12,500 in each process, each waited
 *    to its final status: its lookups compete for the overall 150/s), then another tenant's
 *    single deposit waited to its final status, from ask to final; the same single payment
 *    measured first with nothing else running. Its delay is the difference (target <= 5 s).
 * 3. The tenant layer's cost per call, once the processes of 1 and 2 are gone (their
 *    batch would otherwise still be running): the repository's bench/tenants/layer-cost.mjs,
 *    sequential balance lookups through `(await tenants.client(id))`, a bare MomoClient and
 *    a second bare MomoClient (the control: its ratio to the first is the noise floor), on
 *    the simulator's in-memory fetch; CPU time (process.cpuUsage) and wall time per arm in
 *    short interleaved blocks, the ratio of the totals (target <= 1.05x).
 *
 * Every part runs the built package (`npm run bench` builds first): the workers of 1 and 2
 * (TypeScript, shared with the tests) through tsx with the repository's
 * bench/tenants/tsconfig.json, which has no path aliases, so `momo-partner-sdk/*` is dist/.
 * Each part prints the load average when it starts. Skipped with a message when
 * redis-server is not installed.
 */
import { execFile, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { favourProvider } from './lib/provider-priority.mjs';
import { startRedis } from './lib/redis-server.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const worker = (name) => fileURLToPath(new URL(`../test/tenants/workers/${name}`, import.meta.url));
const PROCESSES = 8;
const TENANTS = 50;
const CREATE_RATE = 20;
const LOOKUP_RATE_PER_KEY = 100;
const GLOBAL_LOOKUP_RATE = 150;
const BATCH = 100_000;
/** The built package, as a partner's code imports it (no path aliases). */
const BUILT_TSCONFIG = fileURLToPath(new URL('./tenants/tsconfig.json', import.meta.url));
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** A worker over IPC (the protocol of test/support/worker.ts). */
async function spawn(file) {
  const child = fork(file, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TSX_TSCONFIG_PATH: BUILT_TSCONFIG },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = new Map();
  let next = 0;
  child.on('message', (m) => {
    if (m.type !== 'reply') return;
    const waiter = replies.get(m.id);
    replies.delete(m.id);
    if (m.error !== undefined) waiter?.reject(new Error(m.error));
    else waiter?.resolve(m.result);
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`worker did not start (${code})`)));
  });
  return {
    call: (method, input = {}) =>
      new Promise((resolve, reject) => {
        const id = next++;
        replies.set(id, { resolve, reject });
        child.send({ id, method, input });
      }),
    kill: () => child.kill('SIGKILL'),
    pid: child.pid,
  };
}

function mostInWindow(times, windowMs = 1_000) {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const pct = (value, cap) => `${(((value - cap) / cap) * 100).toFixed(1)}%`;

async function main() {
  if (!existsSync(new URL('../dist/tenants.js', import.meta.url))) {
    console.log('\n## Tenants: skipped (no dist/: run npm run build first)');
    return;
  }
  let redis;
  try {
    redis = await startRedis();
  } catch {
    console.log('\n## Tenants: skipped (redis-server is not installed)');
    return;
  }
  const workers = [];
  try {
    const provider = await spawn(worker('partners-provider.ts'));
    workers.push(provider);
    const priority = favourProvider(provider.pid);
    const runners = await Promise.all(
      Array.from({ length: PROCESSES }, () => spawn(worker('tenant-runner.ts'))),
    );
    workers.push(...runners);
    const { url, targetEnvironment, tenants } = await provider.call('start', {
      tenants: TENANTS,
      settleMs: 20,
    });
    const init = (prefix) =>
      Promise.all(
        runners.map((runner) =>
          runner.call('init', {
            baseUrl: url,
            targetEnvironment,
            tenants,
            store: { redisUrl: redis.url, prefix },
            createRate: CREATE_RATE,
            lookupRate: LOOKUP_RATE_PER_KEY,
            globalLimits: { lookupRate: GLOBAL_LOOKUP_RATE },
            polling: { initialDelayMs: 200, maxDelayMs: 1_000, timeoutMs: 600_000 },
          }),
        ),
      );

    // 1. Caps.
    await init('bench-caps:');
    const capsLoad = load();
    const started = Date.now();
    const bursts = await Promise.all(
      runners.map((runner) => runner.call('burst', { deposits: 3, balances: 2 })),
    );
    const burstSeconds = (Date.now() - started) / 1000;
    const failed = bursts.flatMap((b) => b.failed);
    const arrivals = await provider.call('arrivals');
    // When each process let its calls go (onRequest, the machine's one clock): what the
    // SDK decided, apart from how late the loaded provider read each request.
    const sends = (await Promise.all(runners.map((runner) => runner.call('sends')))).flat();
    const creates = arrivals.filter((a) => a.kind === 'create');
    const lookups = arrivals.filter((a) => a.kind === 'lookup');
    let perKey = 0;
    for (const { subscriptionKey } of tenants) {
      perKey = Math.max(
        perKey,
        mostInWindow(creates.filter((a) => a.key === subscriptionKey).map((a) => a.at)),
      );
    }
    const allLookups = mostInWindow(lookups.map((a) => a.at));
    const sentLookups = mostInWindow(sends.filter((x) => x.kind === 'lookup').map((x) => x.at));
    let sentPerKey = 0;
    for (const { subscriptionKey } of tenants) {
      const mine = sends.filter((x) => x.kind === 'create' && x.key === subscriptionKey);
      sentPerKey = Math.max(sentPerKey, mostInWindow(mine.map((x) => x.at)));
    }
    console.log(
      `\n## Tenants: ${PROCESSES} processes x ${TENANTS} tenants on one Redis budget (per key createRate ${CREATE_RATE}, lookupRate ${LOOKUP_RATE_PER_KEY}; globalLimits.lookupRate ${GLOBAL_LOOKUP_RATE}); Node ${process.version}, built package, ${priority}`,
    );
    console.log(
      `- burst (${capsLoad} at its start, ${load()} at its end): ${creates.length} creating calls and ${lookups.length} lookups reached the provider in ${burstSeconds.toFixed(1)} s (${failed.length} failed${failed.length ? `: ${failed[0]}` : ''})`,
    );
    console.log(
      `- as sent (each process's onRequest): most creating calls of one key in any sliding second ${sentPerKey}, most lookups of all keys ${sentLookups}`,
    );
    console.log(
      `- most creating calls of one key in any sliding second: ${perKey} (cap ${CREATE_RATE}, ${pct(perKey, CREATE_RATE)}; target at most +2%): ${perKey <= CREATE_RATE * 1.02 ? 'PASS' : 'MISS'}`,
    );
    console.log(
      `- most lookups of all keys in any sliding second: ${allLookups} (cap ${GLOBAL_LOOKUP_RATE}, ${pct(allLookups, GLOBAL_LOOKUP_RATE)}; target at most +2%): ${allLookups <= GLOBAL_LOOKUP_RATE * 1.02 ? 'PASS' : 'MISS'}`,
    );

    // 2. Fairness: the single payment alone, then behind the big batch.
    await init('bench-fair:');
    const fairLoad = load();
    const [big, small] = tenants.map((t) => t.subscriptionKey);
    const single = runners[PROCESSES - 1];
    await single.call('warm', { key: small });
    const alone = await single.call('singleTimed', { key: small, externalId: 'alone' });
    await Promise.all(
      runners.map((runner) => runner.call('bigBatch', { key: big, count: BATCH / PROCESSES })),
    );
    // Let the batch fill the budget: its creating calls and their lookups under way.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const loaded = await single.call('singleTimed', { key: small, externalId: 'behind' });
    const after = await provider.call('arrivals');
    const since = after.filter((a) => a.key === big);
    console.log(
      `- fairness: tenant A's ${BATCH.toLocaleString('en')} deposits queued across ${PROCESSES} processes (each waited to final); by the single payment's end A had ${since.filter((a) => a.kind === 'create').length} creating calls and ${since.filter((a) => a.kind === 'lookup').length} lookups at the provider`,
    );
    const delay = (loaded.finalMs - alone.finalMs) / 1000;
    console.log(
      `- tenant B's single deposit (${fairLoad} before the batch, ${load()} at its end), ask to final: alone ${(alone.finalMs / 1000).toFixed(2)} s (accepted ${alone.acceptedMs} ms); behind A's batch ${(loaded.finalMs / 1000).toFixed(2)} s (accepted ${loaded.acceptedMs} ms): delay ${delay.toFixed(2)} s (target <= 5 s): ${delay <= 5 ? 'PASS' : 'MISS'}`,
    );

    // 3. The tenant layer's cost per call, in a process of its own, the others gone.
    for (const w of workers.splice(0)) w.kill();
    const layerLoad = load();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [fileURLToPath(new URL('./tenants/layer-cost.mjs', import.meta.url)), '600', '50'],
      { cwd: ROOT, maxBuffer: 1 << 20 },
    );
    const layer = JSON.parse(stdout);
    const µs = (value) => `${value.toFixed(1)} µs`;
    const x = ({ total, p25, p75 }) =>
      `${total.toFixed(3)}x (groups' middle half ${p25.toFixed(3)}-${p75.toFixed(3)})`;
    console.log(
      `- tenant layer per call (${layerLoad} at its start, ${load()} at its end; ${layer.calls.toLocaleString('en')} sequential getBalance() per arm in blocks of ${layer.block}, the arms interleaved and rotated, simulator in memory): CPU ${µs(layer.perCall.tenants.cpu)} through tenants.client(id), ${µs(layer.perCall.bare.cpu)} bare, ${µs(layer.perCall.control.cpu)} a second bare client; wall ${µs(layer.perCall.tenants.wall)}, ${µs(layer.perCall.bare.wall)}, ${µs(layer.perCall.control.wall)}`,
    );
    console.log(
      `- tenants / bare, ratio of the totals (spread over ${layer.groups} groups of rounds): CPU ${x(layer.tenants.cpu)}, wall ${x(layer.tenants.wall)}; control (bare / bare, the noise floor): CPU ${x(layer.control.cpu)}, wall ${x(layer.control.wall)}; target <= 1.05x on CPU: ${layer.tenants.cpu.total <= 1.05 ? 'PASS' : 'MISS'}`,
    );
    console.log(
      `- await tenants.client(id) alone (an LRU hit, ${layer.clientLookup.calls.toLocaleString('en')} calls): CPU ${(layer.clientLookup.cpu * 1000).toFixed(0)} ns, wall ${(layer.clientLookup.wall * 1000).toFixed(0)} ns per call`,
    );
  } finally {
    for (const w of workers) w.kill();
    redis.stop();
  }
}

await main();
