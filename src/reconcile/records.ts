import { ValidationError, type ValidationIssue } from '../errors';
import { canonicalDecimal, isDecimalText } from '../payments/decimal';
import { lookupFor } from './operations';
import type { ReconcileFound, ReconcileVerdict } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const CURRENCY = /^[A-Za-z]{3}$/;
const STATUSES = new Set(['PENDING', 'CREATED', 'SUCCESSFUL', 'FAILED']);
const FINAL = new Set(['SUCCESSFUL', 'FAILED']);
/** Issues listed in one ValidationError, at most (a whole file of bad rows says enough). */
const MAX_ISSUES = 20;

/** A record's fields as compared: optional ones absent when empty, normalized. */
export interface Books {
  status: string | undefined;
  amount: string | undefined;
  currency: string | undefined;
}

/** Collects the problems of every record, to refuse the run before any lookup. */
export class RecordChecks {
  readonly issues: ValidationIssue[] = [];
  #count = 0;

  /** The record's comparable fields, or `undefined` when it has a problem (recorded). */
  check(record: unknown, index: number): Books | undefined {
    const at = (field: string) => `records[${index}]${field ? `.${field}` : ''}`;
    const before = this.#count;
    if (typeof record !== 'object' || record === null) {
      this.#issue(
        at(''),
        'must be an object { referenceId, operation, status?, amount?, currency? }',
      );
      return undefined;
    }
    const r = record as Record<string, unknown>;
    if (typeof r.referenceId !== 'string' || !UUID.test(r.referenceId)) {
      this.#issue(at('referenceId'), 'must be the UUID v4 the payment was sent with');
    }
    if (typeof r.operation !== 'string') {
      this.#issue(
        at('operation'),
        'is required: the creating operation, e.g. disbursement.transfer',
      );
    } else {
      const lookup = lookupFor(r.operation);
      if (typeof lookup === 'string') this.#issue(at('operation'), `"${r.operation}" ${lookup}`);
    }
    const books: Books = {
      status: this.#optional(
        r.status,
        at('status'),
        (v) => STATUSES.has(v.toUpperCase()),
        'must be PENDING, SUCCESSFUL or FAILED',
      )?.toUpperCase(),
      amount: this.#optional(
        r.amount,
        at('amount'),
        (v) => isDecimalText(v),
        'must be a decimal string like 100 or 100.50',
      ),
      currency: this.#optional(
        r.currency,
        at('currency'),
        (v) => CURRENCY.test(v),
        'must be an ISO 4217 code like EUR',
      )?.toUpperCase(),
    };
    return this.#count === before ? books : undefined;
  }

  /** The ValidationError for what was found, if anything. */
  error(): ValidationError | undefined {
    if (this.#count === 0) return undefined;
    const issues =
      this.#count > this.issues.length
        ? [
            ...this.issues,
            { path: 'records', message: `and ${this.#count - this.issues.length} more problems` },
          ]
        : this.issues;
    return new ValidationError(issues, { operation: 'reconcile' });
  }

  #optional(
    value: unknown,
    path: string,
    valid: (value: string) => boolean,
    message: string,
  ): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string' && valid(value)) return value;
    this.#issue(path, message);
    return undefined;
  }

  #issue(path: string, message: string): void {
    if (this.#count++ < MAX_ISSUES) this.issues.push({ path, message });
  }
}

/** `100`, `100.0` and `0100.00` alike: the kernel's one spelling (else compared as written). */
export const canonicalAmount = canonicalDecimal;

/** The verdict of a record the provider answered for. */
export function verdictOf(
  books: Books,
  found: ReconcileFound,
): { verdict: ReconcileVerdict; reason?: string } {
  const { verdict, reason } = comparedVerdict(books, found);
  const unchecked = notCompared(books, found);
  const said = [reason, unchecked].filter((part): part is string => part !== undefined);
  return said.length > 0 ? { verdict, reason: said.join('; ') } : { verdict };
}

/**
 * `amount not compared: the provider's answer has none` (and the same of the currency):
 * a field the books hold that the provider's answer lacks, so the verdict does not vouch
 * for it. Undefined when everything the books hold was compared.
 */
function notCompared(books: Books, found: ReconcileFound): string | undefined {
  const missing = (value: unknown) => value === undefined || value === null || value === '';
  const fields: string[] = [];
  if (books.amount !== undefined && missing(found.amount)) fields.push('amount');
  if (books.currency !== undefined && missing(found.currency)) fields.push('currency');
  if (fields.length === 0) return undefined;
  const what = fields.join(' and ');
  return `${what} not compared: the provider's answer has ${fields.length > 1 ? 'neither' : 'none'}`;
}

function comparedVerdict(
  books: Books,
  found: ReconcileFound,
): { verdict: ReconcileVerdict; reason?: string } {
  const status = String(found.status).toUpperCase();
  const differences: string[] = [];
  if (
    books.amount !== undefined &&
    found.amount !== undefined &&
    found.amount !== null &&
    found.amount !== '' &&
    canonicalAmount(books.amount) !== canonicalAmount(String(found.amount))
  ) {
    differences.push(`amount: books ${books.amount}, provider ${found.amount}`);
  }
  if (
    books.currency !== undefined &&
    found.currency !== undefined &&
    found.currency !== null &&
    found.currency !== '' &&
    books.currency !== String(found.currency).toUpperCase()
  ) {
    differences.push(`currency: books ${books.currency}, provider ${found.currency}`);
  }
  const booksFinal = books.status !== undefined && FINAL.has(books.status);
  if (!FINAL.has(status)) {
    if (differences.length > 0) return { verdict: 'MISMATCH', reason: differences.join('; ') };
    return booksFinal
      ? { verdict: 'STILL_PENDING', reason: `books say ${books.status}, provider ${status}` }
      : { verdict: 'STILL_PENDING' };
  }
  if (booksFinal && books.status !== status) {
    const why = found.reason?.code ? ` (${found.reason.code})` : '';
    differences.unshift(`status: books ${books.status}, provider ${status}${why}`);
  }
  if (differences.length > 0) return { verdict: 'MISMATCH', reason: differences.join('; ') };
  return { verdict: booksFinal ? 'MATCH' : 'SETTLED' };
}
