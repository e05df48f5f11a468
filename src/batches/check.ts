import { unknownOperation } from '../catalogue/check';
import { batchOperation } from '../catalogue/operations';
import { ValidationError, type ValidationIssue } from '../errors';
import { checkSecret } from '../payments/ids';
import { checkBatchId } from './batch-id';
import type { BatchRunOptions } from './types';

/** Checks the run's options: a bad one is a ValidationError naming it, before anything is read. */
export function checkRunOptions(items: unknown, options: BatchRunOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new ValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  checkBatchId(options.id);
  checkSecret(options.secret);
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });
  const store = options.store as { open?: unknown } | undefined;
  if (!store || typeof store.open !== 'function') {
    bad('store', 'is required: memoryBatchStore(), fileBatchStore(dir) or another BatchStore');
  }
  if (options.operation !== undefined && !batchOperation(options.operation)) {
    bad('operation', unknownOperation());
  }
  const positive = (name: 'concurrency' | 'createRate' | 'waitTimeoutMs', whole: boolean) => {
    const value = options[name];
    if (value === undefined) return;
    const ok = whole ? Number.isInteger(value) && value > 0 : Number.isFinite(value) && value > 0;
    if (!ok) bad(name, whole ? 'must be a whole number, 1 or more' : 'must be a positive number');
  };
  positive('concurrency', true);
  positive('createRate', false);
  positive('waitTimeoutMs', false);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    bad('signal', 'must be an AbortSignal');
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    bad('onProgress', 'must be a function');
  }
  if (options.onItemSettled !== undefined && typeof options.onItemSettled !== 'function') {
    bad('onItemSettled', 'must be a function');
  }
  const source = items as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  if (
    source === null ||
    typeof source !== 'object' ||
    (typeof source[Symbol.iterator] !== 'function' &&
      typeof source[Symbol.asyncIterator] !== 'function')
  ) {
    bad('items', 'must be an iterable or an async iterable of { key, body }');
  }
  if (issues.length > 0) throw new ValidationError(issues);
}
