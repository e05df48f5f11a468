import { checkItem } from '../../catalogue/check';
import type { ValidationIssue } from '../../errors';
import type { CsvRecord } from '../csv';

/**
 * A row that cannot be paid as written: REJECTED in the results (or, with `--strict`,
 * the file refused). `reason` names the line, the column and why, e.g.
 * `line 7: column "amount" ("-5"): must be a positive decimal string such as "100"`.
 */
export interface RowProblem {
  /** The row's place among the data rows (0-based): its report item's index. */
  index: number;
  line: number;
  key: string;
  reason: string;
}

/** How many bad rows a message or a summary lists; the count says how many more. */
export const PROBLEMS_LISTED = 20;

/** A value as a message quotes it: JSON, cut to 40 characters. */
function quoted(value: string): string {
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : `${text.slice(0, 36)}..."`;
}

/**
 * The column a schema issue is about: the last part of its path (`body.payee.partyId` is
 * `partyId`), told as the column the row wrote it in (`msisdn`; the key, for an
 * `externalId` the row left blank).
 */
function columnOf(path: string, values: Record<string, string>): string | undefined {
  const name = path.split('.').pop() ?? '';
  if (name === 'key' && path === 'key') return 'key';
  if (name === 'partyId' || name === 'payee' || name === 'payer') {
    return values.msisdn ? 'msisdn' : 'partyId';
  }
  if (name === 'externalId') return values.externalId ? 'externalId' : 'key';
  return Object.hasOwn(values, name) || name === 'partyIdType' ? name : undefined;
}

/** One issue as the results say it: the column, its value, why. */
function issueText(issue: ValidationIssue, values: Record<string, string>): string {
  const column = columnOf(issue.path, values);
  if (column === undefined) return `${issue.path}: ${issue.message}`;
  return `column "${column}" (${quoted(values[column] ?? '')}): ${issue.message}`;
}

/** A reason from the library's report for a row the CLI's own check passed, on its line. */
export function onLine(line: number | undefined, reason: string): string {
  return line === undefined ? reason : `line ${line}: ${reason}`;
}

/**
 * Checks rows as the batch will (the operation's schema: `checkItem`), plus unique keys,
 * gathering every bad row rather than stopping at the first.
 */
export class RowChecker {
  readonly #operation: string;
  readonly #firstLine = new Map<string, number>();
  readonly problems: RowProblem[] = [];

  constructor(operation: string) {
    this.#operation = operation;
  }

  /** Whether row `index` can be paid; a problem recorded when not. */
  check(index: number, record: CsvRecord, item: { key: string; body: unknown }): boolean {
    const problem = (reason: string) => {
      this.problems.push({ index, line: record.line, key: item.key, reason });
      return false;
    };
    const checked = checkItem(item, this.#operation);
    if (!checked.ok) {
      // A bad key stops the batch's check before the body: the body's issues too, at once.
      const body = checked.issues.every((issue) => issue.path === 'key')
        ? checkItem({ ...item, key: 'k' }, this.#operation)
        : undefined;
      const issues = [...checked.issues, ...(body && !body.ok ? body.issues : [])];
      // In the order of the file's columns, as the operator reads the row.
      const place = (issue: ValidationIssue) => {
        const at = record.header.indexOf(columnOf(issue.path, record.values) ?? '');
        return at < 0 ? record.header.length : at;
      };
      const why = issues
        .sort((a, b) => place(a) - place(b))
        .map((issue) => issueText(issue, record.values))
        .join('; ');
      return problem(onLine(record.line, why));
    }
    const earlier = this.#firstLine.get(item.key);
    if (earlier !== undefined) {
      return problem(
        onLine(
          record.line,
          `column "key" (${quoted(item.key)}): is also the key of line ${earlier} (keys are unique: this row is not paid)`,
        ),
      );
    }
    this.#firstLine.set(item.key, record.line);
    return true;
  }
}
