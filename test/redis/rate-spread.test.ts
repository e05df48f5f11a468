import type { SharedRateBudget } from 'momo-partner-sdk';
import { createRedisState, type NodeRedisClient } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  expectWindowUsed,
  heardLate,
  LATE_ANSWER_MS,
  PER_KEY,
  reserveAllAtOnce,
  reserveInTurns,
  SLOW_ANSWER_MS,
} from '../support/nested-budget';
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

    /** Two budgets on one Redis, the slow one hearing every answer `lateMs` late. */
    async function twoInstances(lateMs: number) {
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
        sendCommand: (args) => heardLate(client.sendCommand(args), lateMs),
        duplicate: () => client.duplicate(),
        on: (event, listener) => client.on(event, listener),
      };
      const prefix = `spread-${lateMs}-${process.pid}:`;
      return {
        slow: createRedisState(slowClient, { prefix }).rateBudget,
        quick: createRedisState(quick.client, { prefix }).rateBudget,
      };
    }

    it("never lets a quick instance take an N + 1th call into a slow instance's second", async () => {
      const { slow, quick } = await twoInstances(LATE_ANSWER_MS);
      const moments = await reserveInTurns(slow, quick);
      expect(moments).toHaveLength(6 * PER_KEY);
      expect(mostInWindow(moments, 1_000)).toBeLessThanOrEqual(PER_KEY);
    }, 60_000);

    it('holds when the first answer is slower than the spread first guessed (that one is not used)', async () => {
      // 80 ms late: wider than the 50 ms a first reservation is counted with, so the slow
      // instance's first one is lost and asked for again. Between quick ones (whose spreads
      // add almost nothing to the even spacing), the first one used would break the window.
      const { slow, quick } = await twoInstances(80);
      const moments: number[] = [];
      const reserve = async (budget: SharedRateBudget, count: number) => {
        for (let i = 0; i < count; i++) moments.push(await budget.reserve('create', PER_KEY, 5));
      };
      await reserve(quick, PER_KEY - 1);
      await reserve(slow, 1);
      await reserve(quick, PER_KEY);
      expect(moments).toHaveLength(2 * PER_KEY);
      expect(mostInWindow(moments, 1_000)).toBeLessThanOrEqual(PER_KEY);
    }, 60_000);

    it('spaces a slow instance by its moments: its spread does not slow its rate', async () => {
      const { slow } = await twoInstances(SLOW_ANSWER_MS);
      expectWindowUsed(await reserveAllAtOnce(slow));
    }, 60_000);
  },
);
