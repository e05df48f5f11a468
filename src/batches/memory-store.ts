import type { BatchStore } from '../contracts/batch-store';
import { checkBatchId } from './batch-id';
import { LocalHandle, type LocalLog } from './local-handle';

const NOTHING_TO_WRITE: LocalLog = { intent() {}, outcome() {}, close() {} };

/**
 * A batch store in this process's memory: a re-run in the same process continues the
 * batch; a restart forgets it (with a `secret`, derived reference ids still keep a re-run
 * from paying twice). For tests and short scripts.
 */
export function memoryBatchStore(): BatchStore {
  const batches = new Map<string, LocalHandle>();
  return {
    async open(id) {
      checkBatchId(id);
      let handle = batches.get(id);
      if (!handle) {
        handle = new LocalHandle(id, NOTHING_TO_WRITE);
        batches.set(id, handle);
      }
      return handle;
    },
    async *batches() {
      yield* [...batches.keys()];
    },
  };
}
