import { createRedisState, type NodeRedisClient } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { heardLate, PER_KEY, reserveInTurns } from '../support/nested-budget';
import { mostInWindow } from '../support/sliding-window';
import { connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// Each process maps Redis' moments onto its own clock by the answers it saw; one whose
// answers come back late maps them late. Real redis-server; the slow instance's client
// hears each reply 40 ms after Redis sent it. Counted moments, nothing timed.
describeWithRedis(
  'the Redis rate budget across instances whose answers come back at different speeds',
  () => {
    let server: RedisServer;
    const closing: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      server = await RedisServer.start();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(closing.map((close) => close()));
      await server?.dispose();
    });

    it("never lets a quick instance take an N + 1th call into a slow instance's second", async () => {
      const [quick, slow] = await Promise.all([
        connectClient('node-redis', server.url),
        connectClient('node-redis', server.url),
      ]);
      closing.push(quick.close, slow.close);
      const client = slow.client as NodeRedisClient;
      const slowClient: NodeRedisClient = {
        get isReady() {
          return client.isReady;
        },
        sendCommand: (args) => heardLate(client.sendCommand(args)),
        duplicate: () => client.duplicate(),
        on: (event, listener) => client.on(event, listener),
      };
      const prefix = `spread-${process.pid}:`;
      const moments = await reserveInTurns(
        createRedisState(slowClient, { prefix }).rateBudget,
        createRedisState(quick.client, { prefix }).rateBudget,
      );
      expect(moments).toHaveLength(6 * PER_KEY);
      expect(mostInWindow(moments, 1_000)).toBeLessThanOrEqual(PER_KEY);
    }, 60_000);
  },
);
