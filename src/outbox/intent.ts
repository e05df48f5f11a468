import { checkItem } from '../catalogue/check';
import type { OutboxIntent } from '../contracts/outbox-store';
import { ValidationError, type ValidationIssue } from '../errors';
import { fingerprint, randomReferenceId } from '../payments/ids';

/** An intent once checked: what an outbox store records, with its body's fingerprint. */
export interface CheckedOutboxIntent extends OutboxIntent {
  /** SHA-256 (hex) of the operation and the body's canonical JSON: a reused key with another body shows. */
  fingerprint: string;
  /**
   * A fresh reference id from the kernel's one source of ids: the one a store records
   * when the key is new (a key already stored keeps its own).
   */
  referenceId: string;
}

/**
 * For outbox store implementers (`db.outbox.enqueue` uses it): checks an intent exactly as
 * a batch item is checked (a non-empty `key` of at most 200 characters, well-formed,
 * without control characters, a creating `operation` with a status lookup,
 * the `body` against the method's own schema, the `callbackUrl`'s form), fingerprints
 * it and chooses the reference id it is sent under if its key is new. Bad input: a ValidationError naming the field, nothing stored or sent.
 */
export async function checkOutboxIntent(input: unknown): Promise<CheckedOutboxIntent> {
  if (input === null || typeof input !== 'object') {
    throw new ValidationError([
      { path: 'intent', message: 'must be an object { key, operation, body }' },
    ]);
  }
  const { operation } = input as { operation?: unknown };
  if (operation === undefined) {
    throw new ValidationError([
      { path: 'operation', message: 'is required, e.g. "collection.requestToPay"' },
    ]);
  }
  const check = checkItem(input, String(operation));
  if (!check.ok) throw new ValidationError(check.issues.map(inOutboxWords));
  const { body, callbackUrl, tenant } = input as OutboxIntent;
  if (tenant !== undefined && !(typeof tenant === 'string' && TENANT_ID.test(tenant))) {
    throw new ValidationError([
      {
        path: 'tenant',
        message:
          'must be a tenant id: 1-128 letters, digits, ".", "_" or "-", starting with a letter or a digit',
      },
    ]);
  }
  return {
    key: check.key,
    operation: check.operation,
    body,
    ...(callbackUrl === undefined ? {} : { callbackUrl }),
    ...(tenant === undefined ? {} : { tenant }),
    fingerprint: await fingerprint(check.operation, body),
    referenceId: randomReferenceId(),
  };
}

/** A tenant id as `momo-partner-sdk/tenants` takes it (src/tenants/tenant-id.ts). */
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The batch's words for an unknown operation, said of the outbox. */
function inOutboxWords(issue: ValidationIssue): ValidationIssue {
  if (issue.path !== 'operation') return issue;
  return {
    path: 'operation',
    message:
      'is not a creating operation with a status lookup the outbox can send ' +
      '(e.g. "collection.requestToPay"; see docs/postgres.md)',
  };
}
