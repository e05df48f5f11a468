import { createHmac } from 'node:crypto';
import { RedisTokenStore } from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

let prefixes = 0;

describeWithRedis('the refresh lock, as a cold client meets it', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });
  const command = (args: string[]) =>
    (redis.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);

  function setUp() {
    const sim = createSimulator();
    const prefix = `lock${++prefixes}:`;
    const { apiUser, targetEnvironment, baseUrl, subscriptionKey } = sim.credentials;
    // The token's key names the subscription key by 16 hex digits of a digest, never in clear.
    const keyDigest = createHmac('sha256', subscriptionKey)
      .update('momo-callback:')
      .digest('hex')
      .slice(0, 16);
    const tail = `disbursement:${apiUser.id}:${targetEnvironment}:${baseUrl}:${keyDigest}`;
    const tokenRequests = () =>
      sim.requests.filter((r) => r.path === '/disbursement/token/').length;
    const client = () => sim.client({ tokenStore: new RedisTokenStore(redis.client, { prefix }) });
    return {
      sim,
      lockKey: `{${prefix}token:${tail}}:lock`, // one hash tag: one cluster slot
      tokenKey: `{${prefix}token:${tail}}`,
      tokenRequests,
      client,
    };
  }

  it('waits while another process holds the lock, then uses the token it stores', async () => {
    const { sim, lockKey, tokenKey, tokenRequests, client } = setUp();
    await command(['SET', lockKey, 'another-process', 'PX', '10000']);
    const balance = client().disbursement.getBalance();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tokenRequests()).toBe(0); // it waits rather than fetching
    // The other process finishes: a token fetched elsewhere lands in the store.
    const token = await sim.client().disbursement.getAccessToken();
    const stored = {
      accessToken: token.accessToken,
      tokenType: 'access_token',
      issuedAt: Date.now(),
      expiresAt: token.expiresAt.getTime(),
    };
    await command(['SET', tokenKey, JSON.stringify(stored), 'PX', '60000']);
    expect(await balance).toMatchObject({ currency: 'EUR' });
    expect(tokenRequests()).toBe(1); // only the other process's
  });

  it('takes over when the holder died: its lock lapses and one token request follows', async () => {
    const { lockKey, tokenRequests, client } = setUp();
    await command(['SET', lockKey, 'a-dead-process', 'PX', '300']);
    const momo = client();
    const balances = await Promise.all([
      momo.disbursement.getBalance(),
      client().disbursement.getBalance(),
    ]);
    expect(balances).toHaveLength(2);
    expect(tokenRequests()).toBe(1);
    expect(await command(['EXISTS', lockKey])).toBe(0); // released by the new holder
  });
});
