import type { ValidationIssue } from '../errors';
import { nameProblem } from '../payments/key-rules';
import { parseWith } from '../schemas/validate';
import { batchOperation, type PaymentOperation } from './operations';

/** Why an operation name is refused: not one a list can run. */
export function unknownOperation(): string {
  return (
    'is not a creating operation with a status lookup a batch can run ' +
    '(e.g. "disbursement.transfer"; see docs/batches.md)'
  );
}

/** What checking one item found: its operation's spec, or why it is REJECTED. */
export type ItemCheck =
  | { ok: true; key: string; operation: string; spec: PaymentOperation }
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
