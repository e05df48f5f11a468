/**
 * The partner's app in its own process, for test/callbacks/burst.test.ts: a MomoClient on
 * the simulator's address, its callback handler (default options) served on a loopback
 * port, driven by the parent over IPC. `waits: true`: the app awaits each payment's
 * `wait()`. `waits: false`: the payments are created by another client of the same
 * journal, so the one that receives the callbacks neither created nor awaits them and
 * knows them from its journal only (as a restarted app with a Redis or PostgreSQL one).
 */
import {
  InMemoryJournal,
  MomoClient,
  type MomoClientOptions,
  toNodeListener,
} from 'momo-partner-sdk';
import { serveParent } from '../../support/worker';
import { serve } from '../support';

export interface AppInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  waits: boolean;
}

const PENDING_PAYER = '46733123453'; // stays PENDING until the provider settles it

/** The waits' first lookup comes after the test's horizon: only callbacks can end them. */
const polling = { initialDelayMs: 120_000, maxDelayMs: 120_000, timeoutMs: 300_000 };

let app:
  | {
      receiver: MomoClient;
      creator: MomoClient;
      journal: InMemoryJournal;
      waits: boolean;
      ended: number;
      failed: string[];
      close(): Promise<void>;
    }
  | undefined;

const started = () => {
  if (!app) throw new Error('start first');
  return app;
};

serveParent({
  async start(input: AppInput) {
    const journal = new InMemoryJournal();
    let handler: ((req: never, res: never) => unknown) | undefined;
    const server = await serve((req, res) => void handler?.(req as never, res as never));
    const options = {
      ...input.simulator,
      journal,
      polling,
      callbackUrl: `${server.url}/momo/callbacks/{referenceId}`,
    };
    const receiver = new MomoClient(options);
    const creator = input.waits ? receiver : new MomoClient(options);
    handler = toNodeListener(receiver.callbacks.handler()) as never;
    app = {
      receiver,
      creator,
      journal,
      waits: input.waits,
      ended: 0,
      failed: [],
      close: server.close,
    };
    return { url: server.url };
  },

  /** Creates `count` requests to pay, all pending; with waits, awaits each one's outcome. */
  async create({ count }: { count: number }) {
    const a = started();
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const accepted = await a.creator.collection.requestToPay({
          amount: '10',
          currency: 'EUR',
          externalId: `order-${i}`,
          payer: { partyIdType: 'MSISDN', partyId: PENDING_PAYER },
        });
        ids.push(accepted.referenceId);
        if (a.waits) {
          accepted.wait().then(
            (final) => {
              if (final.status === 'SUCCESSFUL') a.ended++;
              else a.failed.push(`${accepted.referenceId} ${final.status}`);
            },
            (error: unknown) => a.failed.push(`${accepted.referenceId} ${String(error)}`),
          );
        }
      }),
    );
    return ids;
  },

  /** How many payments ended: SUCCESSFUL in the journal, and (with waits) waits resolved. */
  async ended({ ids }: { ids: string[] }) {
    const a = started();
    let final = 0;
    for (const id of ids) if ((await a.journal.get(id))?.outcome === 'SUCCESSFUL') final++;
    return { final, waitsEnded: a.ended, failed: a.failed };
  },

  async close() {
    await app?.close();
    setImmediate(() => process.exit(0));
  },
});
