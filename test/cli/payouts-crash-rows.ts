// The 300-row batch the crash tests pay: every outcome the simulator's magic MSISDNs give,
// rows the schema refuses, and rows that stay pending until the test settles them.
export const ROWS = 300;
export const HEADER = ['key', 'name', 'msisdn', 'amount', 'currency', 'memo'];

/** What each row's payee makes of it (docs/simulator.md, magic MSISDNs). */
const OUTCOMES = {
  '46733123999': ['SUCCESSFUL', ''],
  '46733123451': ['FAILED', 'APPROVAL_REJECTED'],
  '46733123455': ['FAILED', 'NOT_ENOUGH_FUNDS'],
  '46733123450': ['FAILED', 'INTERNAL_PROCESSING_ERROR'],
} as const;
export const PENDING_FOREVER = '46733123453'; // until the test settles it (waits stay pending)
/** Rows the schema refuses (REJECTED, never sent): a local number, a lower-case currency. */
const INVALID = new Map([
  [7, { msisdn: '0244000111', reason: 'column "msisdn" ("0244000111")' }],
  [120, { currency: 'eur', reason: 'column "currency" ("eur")' }],
  [201, { msisdn: '0244000222', reason: 'column "msisdn" ("0244000222")' }],
  [300, { currency: 'usd', reason: 'column "currency" ("usd")' }],
]);
/** Rows whose transfer stays PENDING until the test settles it: how it settles them. */
export const PENDING = new Map<number, 'SUCCESSFUL' | 'FAILED'>([
  [140, 'SUCCESSFUL'],
  [141, 'FAILED'],
  [142, 'SUCCESSFUL'],
  [143, 'SUCCESSFUL'],
  [144, 'FAILED'],
]);
export const SETTLED_REASON = { code: 'EXPIRED', message: 'The transaction has expired.' };

export interface Row {
  values: Record<string, string>;
  /** What the results must say of a valid row. */
  expected?: { status: string; reason: string };
  invalid?: string;
}

/** The 300 rows of batch `prefix`: mixed outcomes, 4 invalid, 5 pending until settled. */
export function payroll(prefix: string): Row[] {
  const rows: Row[] = [];
  for (let n = 1; n <= ROWS; n++) {
    const payee =
      n % 10 === 3
        ? '46733123451'
        : n % 10 === 7
          ? '46733123455'
          : n % 23 === 0
            ? '46733123450'
            : '46733123999';
    const invalid = INVALID.get(n);
    const values = {
      key: `${prefix}-${String(n).padStart(3, '0')}`,
      name: `Payee ${n}, "the ${n % 2 ? 'odd' : 'even'}"`,
      msisdn: PENDING.has(n) ? PENDING_FOREVER : (invalid?.msisdn ?? payee),
      amount: `${(n % 40) + 1}.${String(n % 100).padStart(2, '0')}`,
      currency: invalid?.currency ?? 'EUR',
      memo: n % 50 === 0 ? '' : `line\n${n}`,
    };
    const settled = PENDING.get(n);
    const [status, reason] = settled
      ? [settled, settled === 'FAILED' ? SETTLED_REASON.code : '']
      : OUTCOMES[payee as keyof typeof OUTCOMES];
    rows.push({
      values,
      ...(invalid ? { invalid: invalid.reason } : { expected: { status, reason } }),
    });
  }
  return rows;
}

const quoted = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** The rows as a CSV file's text, every value quoted as it needs. */
export function csvText(rows: Row[]): string {
  const lines = [HEADER, ...rows.map((r) => HEADER.map((c) => r.values[c] ?? ''))];
  return `${lines.map((l) => l.map(quoted).join(',')).join('\r\n')}\r\n`;
}
