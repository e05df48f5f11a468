/**
 * One instance of a partner's backend, run as its own process by the multi-process
 * tests: its own MomoClient on a shared Redis, driven by the parent over IPC.
 */
import { createServer, type Server } from 'node:http';
import { MomoClient, type MomoClientOptions, toNodeListener } from 'momo-partner-sdk';
import { createRedisState, type RedisState } from 'momo-partner-sdk/redis';
import { send, serveParent } from '../../support/worker';
import { type ConnectedClient, connectClient, type Library } from '../support/clients';

export interface InitInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  /** The server, or for a cluster library its nodes, comma-separated. */
  redisUrl: string;
  prefix: string;
  library: Library;
  polling?: MomoClientOptions['polling'];
  callbackUrl?: string;
  /** Serve `momo.callbacks.handler()` on a loopback port. */
  serveCallbacks?: boolean;
  lookupRate?: number;
  createRate?: number;
  /** Share the rates through Redis (`rateBudget: shared.rateBudget`). */
  shareRates?: boolean;
}

const PAYEE_OK = '46733123459';
let redis: ConnectedClient | undefined;
let shared: RedisState | undefined;
let momo: MomoClient | undefined;
let callbackServer: Server | undefined;
/** When this process let each lookup (GET) and creating call go: its onRequest hook. */
let sent: { kind: 'get' | 'create'; at: number }[] = [];

const client = () => {
  if (!momo) throw new Error('init first');
  return momo;
};
const deposit = (payee: string, referenceId?: string) =>
  client().disbursement.deposit(
    {
      amount: '10',
      currency: 'EUR',
      externalId: 'ext-1',
      payee: { partyIdType: 'MSISDN', partyId: payee },
    },
    referenceId ? { referenceId } : {},
  );

const handlers: Record<string, (input: never) => Promise<unknown>> = {
  async init(input: InitInput) {
    redis = await connectClient(input.library, input.redisUrl);
    shared = createRedisState(redis.client, { prefix: input.prefix });
    momo = new MomoClient({
      ...input.simulator,
      ...(input.polling ? { polling: input.polling } : {}),
      ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
      ...(input.lookupRate ? { lookupRate: input.lookupRate } : {}),
      ...(input.createRate ? { createRate: input.createRate } : {}),
      ...(input.shareRates ? { rateBudget: shared.rateBudget } : {}),
      tokenStore: shared.tokenStore,
      callbackBus: shared.callbackBus,
      journal: shared.journal,
      hooks: {
        onRequest: (info) => {
          if (info.method === 'GET') sent.push({ kind: 'get', at: Date.now() });
          else if (info.referenceId !== undefined) sent.push({ kind: 'create', at: Date.now() });
        },
      },
      logger: {
        warn: (message) => send({ type: 'log', level: 'warn', message }),
        info: (message) => send({ type: 'log', level: 'info', message }),
        error: (message) => send({ type: 'log', level: 'error', message }),
      },
    });
    // The client's subscriber shares this connection: once this resolves, it listens too.
    await (await shared.callbackBus.subscribe(() => {}))();
    if (!input.serveCallbacks) return {};
    const listener = toNodeListener(momo.callbacks.handler());
    callbackServer = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => callbackServer?.listen(0, '127.0.0.1', resolve));
    const address = callbackServer.address();
    return { callbackPort: typeof address === 'object' && address ? address.port : 0 };
  },

  /** The sends recorded since the last call (and forgets them). */
  async sends() {
    const out = sent;
    sent = [];
    return out;
  },

  /** `count` concurrent balance calls, alternating disbursement and collection. */
  async balances(input: { count: number }) {
    const calls = Array.from({ length: input.count }, (_, i) =>
      i % 2 === 0 ? client().disbursement.getBalance() : client().collection.getBalance(),
    );
    const settled = await Promise.allSettled(calls);
    const failed = settled.filter((s) => s.status === 'rejected');
    return { ok: settled.length - failed.length, failed: failed.map((f) => String(f.reason)) };
  },

  /** A deposit awaited to its final status; reports `accepted` as soon as it is. */
  async depositAndWait(input: { payee?: string }) {
    const accepted = await deposit(input.payee ?? PAYEE_OK);
    send({ type: 'event', name: 'accepted', referenceId: accepted.referenceId });
    const final = await accepted.wait();
    return { referenceId: accepted.referenceId, status: final.status };
  },

  /** Sends a deposit and nothing more (the parent may kill this process meanwhile). */
  async deposit(input: { referenceId?: string }) {
    const accepted = await deposit(PAYEE_OK, input.referenceId);
    return { referenceId: accepted.referenceId };
  },

  /** `count` deposits sent at once (not awaited to a final status). */
  async deposits(input: { count: number }) {
    const settled = await Promise.allSettled(
      Array.from({ length: input.count }, () => deposit(PAYEE_OK)),
    );
    const failed = settled.filter((s) => s.status === 'rejected');
    return { ok: settled.length - failed.length, failed: failed.map((f) => String(f.reason)) };
  },

  /** `count` deposits one after the other, each awaited to its final status. */
  async payments(input: { count: number }) {
    const results: { referenceId: string; status: string }[] = [];
    for (let i = 0; i < input.count; i++) {
      const final = await deposit(PAYEE_OK).wait();
      results.push({ referenceId: final.referenceId ?? '', status: final.status });
    }
    return results;
  },

  async redisReady() {
    const client = redis?.client as { isReady?: boolean; status?: string } | undefined;
    return client?.isReady ?? client?.status === 'ready';
  },

  async pending() {
    return client().journal.pending();
  },

  async health() {
    return client().health();
  },

  /** `concurrency`: how many waits at once (default 4). */
  async resume(input: { concurrency?: number }) {
    const outcomes = await client().journal.resume({ concurrency: input.concurrency ?? 4 });
    return outcomes.map((o) => ({ referenceId: o.entry.referenceId, status: o.status }));
  },

  async close() {
    await shared?.close();
    await redis?.close();
    await new Promise((resolve) =>
      callbackServer ? callbackServer.close(resolve) : resolve(null),
    );
    setImmediate(() => process.exit(0));
    return {};
  },
};

serveParent(handlers);
