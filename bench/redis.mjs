/**
 * node bench/redis.mjs (after npm run build; part of npm run bench). Measures the built
 * package against a redis-server of its own on a free loopback port (skipped, with a
 * message, when redis-server is not installed). Figures are medians of several rounds,
 * and ratios against a baseline measured in the same run: absolute times on shared
 * machines mean little.
 *
 * 1. Warm path: balance lookups through a client whose tokens live in Redis vs one with
 *    the in-memory cache only (both through the simulator's in-memory fetch). Redis
 *    commands counted server-side (INFO stats): the warm path should send none.
 * 2. Cold path: the first call of a fresh client (token request + Redis lock, read,
 *    write, release) vs the same with the in-memory cache.
 * 3. Fan-out: publish -> listener on another connection (bus alone); and end to end,
 *    from the service settling a deposit to the wait on another client resolving
 *    (callback to B, B's confirming lookup, publish, wake of A).
 */
import { createRedisState, RedisCallbackBus } from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { createClient } from 'redis';
import { startRedis } from './lib/redis-server.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ratio = (a, b) => Number((a / b).toPrecision(3)).toString();
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;

async function connect(url) {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function warmPath(url) {
  const sim = createSimulator();
  const redis = await connect(url);
  const stats = await connect(url);
  const shared = createRedisState(redis, { prefix: 'bench-warm:' });
  const plain = sim.client();
  const withRedis = sim.client({ tokenStore: shared.tokenStore });
  await plain.disbursement.getBalance();
  await withRedis.disbursement.getBalance(); // both warm now
  const commands = async () =>
    Number(/total_commands_processed:(\d+)/.exec(await stats.info('stats'))?.[1]);
  const per = { plain: [], redis: [] };
  let redisCommands = 0;
  const calls = 2_000;
  for (let round = 0; round < 8; round++) {
    for (const [name, momo] of [
      ['plain', plain],
      ['redis', withRedis],
    ]) {
      const before = name === 'redis' ? await commands() : 0;
      const started = performance.now();
      for (let i = 0; i < calls; i++) await momo.disbursement.getBalance();
      if (round === 0) continue; // warm-up round, not counted
      per[name].push((performance.now() - started) / calls);
      if (name === 'redis') redisCommands += (await commands()) - before - 1; // minus INFO itself
    }
  }
  await shared.close();
  await redis.quit();
  await stats.quit();
  return { plain: median(per.plain), redis: median(per.redis), redisCommands, calls: 7 * calls };
}

async function coldPath(url) {
  const redis = await connect(url);
  const per = { plain: [], redis: [] };
  for (let round = 0; round < 40; round++) {
    const sim = createSimulator();
    const shared = createRedisState(redis, { prefix: `bench-cold-${round}:` });
    for (const [name, options] of [
      ['plain', {}],
      ['redis', { tokenStore: shared.tokenStore }],
    ]) {
      const momo = sim.client(options);
      const started = performance.now();
      await momo.disbursement.getBalance();
      per[name].push(performance.now() - started);
    }
  }
  await redis.quit();
  return { plain: median(per.plain), redis: median(per.redis) };
}

async function busDelay(url) {
  const publisher = await connect(url);
  const subscriberClient = await connect(url);
  const out = new RedisCallbackBus(publisher, { prefix: 'bench-bus:' });
  const into = new RedisCallbackBus(subscriberClient, { prefix: 'bench-bus:' });
  let arrived;
  await into.subscribe(() => arrived?.());
  const delays = [];
  const event = {
    referenceId: '6c1d0b2e-8f3a-4b5c-9d6e-7f8091a2b3c4',
    result: { status: 'SUCCESSFUL' },
  };
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await new Promise((resolve) => {
      arrived = resolve;
      void out.publish(event);
    });
    delays.push(performance.now() - started);
  }
  await into.close();
  await publisher.quit();
  await subscriberClient.quit();
  return delays;
}

async function fanOutEndToEnd(url) {
  let handlerOfB;
  const sim = createSimulator({
    callbackFetch: (input, init) => handlerOfB(new Request(input, init)),
  });
  const [ra, rb] = [await connect(url), await connect(url)];
  const [sa, sb] = [
    createRedisState(ra, { prefix: 'bench-e2e:' }),
    createRedisState(rb, { prefix: 'bench-e2e:' }),
  ];
  const slow = { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 };
  const options = (s) => ({
    tokenStore: s.tokenStore,
    callbackBus: s.callbackBus,
    journal: s.journal,
    polling: slow,
  });
  const a = sim.client({
    ...options(sa),
    callbackUrl: 'https://b.partner.test/momo/{referenceId}',
  });
  const b = sim.client(options(sb));
  handlerOfB = b.callbacks.handler();
  await new Promise((resolve) => setTimeout(resolve, 200)); // both subscribed
  const payee = { partyIdType: 'MSISDN', partyId: '46733123453' }; // pending until settled
  const delays = [];
  for (let i = 0; i < 50; i++) {
    const accepted = await a.disbursement.deposit({ amount: '1', currency: 'EUR', payee });
    const waiting = accepted.wait();
    const started = performance.now();
    sim.settle(accepted.referenceId, 'SUCCESSFUL');
    await waiting;
    delays.push(performance.now() - started);
  }
  await sa.close();
  await sb.close();
  await ra.quit();
  await rb.quit();
  return delays;
}

let redis;
try {
  redis = await startRedis();
} catch {
  console.log('redis bench skipped: redis-server is not installed (apt-get install redis-server)');
  process.exit(0);
}
try {
  const warm = await warmPath(redis.url);
  console.log(
    '3. Redis token store, warm path (balance lookups, in-memory service, median of 7 rounds)',
  );
  console.log(
    `   in-memory cache ${us(warm.plain)}/call, Redis store ${us(warm.redis)}/call   ratio ${ratio(warm.redis, warm.plain)}; Redis commands sent: ${warm.redisCommands} for ${warm.calls} calls`,
  );
  const cold = await coldPath(redis.url);
  console.log('4. Cold first call of a fresh client (token request included, median of 40)');
  console.log(
    `   in-memory cache ${cold.plain.toFixed(2)} ms, Redis store (lock, read, write, release) ${cold.redis.toFixed(2)} ms   +${(cold.redis - cold.plain).toFixed(2)} ms`,
  );
  const bus = await busDelay(redis.url);
  console.log('5. Callback fan-out over Redis pub/sub (loopback)');
  console.log(
    `   publish -> listener on another connection: median ${median(bus).toFixed(3)} ms, p95 ${p95(bus).toFixed(3)} ms (300 messages)`,
  );
  const e2e = await fanOutEndToEnd(redis.url);
  console.log(
    `   settle -> wait() resolved on another client (callback, confirming lookup, publish, wake): median ${median(e2e).toFixed(2)} ms, p95 ${p95(e2e).toFixed(2)} ms (50 deposits; without fan-out that wait polls after 60 s)`,
  );
} finally {
  redis.stop();
}
