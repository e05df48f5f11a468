/**
 * A partner's process paying a list on a file store whose `onItemSettled` never returns:
 * it says `settling` for each item whose hook started, and waits there until it is
 * SIGKILLed (test/batches/item-settled-crash.test.ts). The crash between an outcome's
 * write and the hook's end that the `delivered: false` mark exists for.
 */
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { Batches, type BatchItem, fileBatchStore } from 'momo-partner-sdk/batches';

export interface SettledRunnerInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  dir: string;
  batchId: string;
  items: BatchItem[];
}

process.once('message', async (input: SettledRunnerInput) => {
  const momo = new MomoClient({
    ...input.simulator,
    polling: { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 60_000 },
  });
  await new Batches(momo).run(input.items, {
    id: input.batchId,
    store: fileBatchStore(input.dir),
    onItemSettled: async (item) => {
      process.send?.({ type: 'settling', key: item.key });
      await new Promise(() => {}); // the books never answer: killed here
    },
  });
});
