import { ValidationError, type ValidationIssue } from '../errors';
import { parseWith } from '../schemas/validate';
import { checkBatchId } from './batch-id';
import { nameProblem } from './key-rules';
import { type BatchOperationSpec, batchOperation } from './operations';
import { checkSecret } from './reference-id';
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

function unknownOperation(): string {
  return (
    'is not a creating operation with a status lookup a batch can run ' +
    '(e.g. "disbursement.transfer"; see docs/batches.md)'
  );
}

/** What checking one item found: its operation's spec, or why it is REJECTED. */
export type ItemCheck =
  | { ok: true; key: string; operation: string; spec: BatchOperationSpec }
  | { ok: false; key: string; operation: string; reason: string; issues: ValidationIssue[] };

/**
 * One item checked as its creating call would check it (its body against the method's own
 * schema), plus what a batch adds: a key, a known operation, a callback URL's form.
 */
export function checkItem(item: unknown, defaultOperation: string): ItemCheck {
  if (item === null || typeof item !== 'object') {
    const issues = [{ path: 'item', message: 'must be an object' }];
    return {
      ok: false,
      key: '',
      operation: defaultOperation,
      reason: 'item: must be an object',
      issues,
    };
  }
  const { key, body, operation = defaultOperation, callbackUrl } = item as Record<string, unknown>;
  const name = typeof operation === 'string' ? operation : String(operation);
  const keyText = typeof key === 'string' ? key : key === undefined ? '' : String(key);
  const reject = (issues: ValidationIssue[]): ItemCheck => ({
    ok: false,
    key: keyText,
    operation: name,
    reason: issues.map((i) => `${i.path}: ${i.message}`).join('; '),
    issues,
  });
  const one = (path: string, message: string) => reject([{ path, message }]);
  if (typeof key !== 'string' || key.length === 0) return one('key', 'must be a non-empty string');
  const keyProblem = nameProblem(key); // before anything is read or written under it
  if (keyProblem) return one('key', keyProblem);
  const spec = batchOperation(operation);
  if (!spec) return one('operation', unknownOperation());
  if (callbackUrl !== undefined && !isHttpUrl(callbackUrl)) {
    return one('callbackUrl', 'must be an absolute http(s) URL');
  }
  const parsed = parseWith(spec.body, body, 'body');
  if (!parsed.ok) return reject([...parsed.issues]);
  return { ok: true, key, operation: name, spec };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.replaceAll('{referenceId}', 'x'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
