/**
 * An adopted payment verified (docs/architecture.md): when an outcome comes from a send this run
 * cannot prove was its own (a 409 on a first send: a crash, a lost or missing store
 * record, a derived reference id), the provider's transaction under that reference id
 * is compared with the item. A 409 proves that *something* was sent under the id, not
 * that it was this item: an edited row, or a new list under a reused batch id, meets the
 * transaction an earlier list created.
 *
 * Compared, where both sides give a value: the amount (as decimals: "100" is "100.00"),
 * the currency (and a pre-approval's `payerCurrency`), the payee, payer or intended payer
 * (party id kind, and the id: an MSISDN by its digits, an e-mail address without regard
 * to case), the `externalId`. A field the provider's answer leaves out, or the item leaves
 * out, is not compared (docs/assumptions.md AD1).
 */
import { withoutTrailingZeros } from './decimal';

/** One field where the provider's transaction and the item differ. */
export interface Difference {
  /** The body's field, e.g. `amount`, `payee`, `money.amount`. */
  field: string;
  /** What the provider holds, as text (a party as `MSISDN 46733123999`). */
  provider: string;
  /** What the item says, as text. */
  item: string;
}

type Kind = 'decimal' | 'code' | 'text' | 'party';

/** The compared fields: where each is in a body (and, by the same path, in a result). */
const FIELDS: readonly (readonly [path: string, kind: Kind])[] = [
  ['amount', 'decimal'],
  ['money.amount', 'decimal'],
  ['currency', 'code'],
  ['money.currency', 'code'],
  ['payerCurrency', 'code'],
  ['externalId', 'text'],
  ['payee', 'party'],
  ['payer', 'party'],
  ['intendedPayer', 'party'],
];

/**
 * The reason code of an outbox payment whose reference id the provider holds for another
 * transaction (FAILED: this payment was never sent; its outcome has no REJECTED).
 */
export const MISMATCH_CODE = 'TRANSACTION_MISMATCH';

/** What ends a difference's reason, and what `isMismatch` finds in one. */
const HOLDS = 'the provider holds ';
const FOR_THIS_ID = ' for this reference id, the item says ';
const NOT_SENT = '; not sent';

/**
 * Where the provider's transaction (`result`, a status lookup's answer or a callback's
 * body) differs from the item's `body`: empty when they agree on every field both give.
 */
export function differences(body: unknown, result: unknown): Difference[] {
  const out: Difference[] = [];
  for (const [path, kind] of FIELDS) {
    const mine = at(body, path);
    const theirs = at(result, path) ?? at(unknownFieldsOf(result), path);
    if (mine === undefined || mine === null || theirs === undefined || theirs === null) continue;
    const difference = compare(kind, theirs, mine);
    if (difference) out.push({ field: path, ...difference });
  }
  return out;
}

/**
 * The REJECTED reason of an item whose reference id holds another transaction, naming
 * each field and both values, e.g. `amount: the provider holds 100 for this reference
 * id, the item says 150; not sent`. Undefined when they agree.
 */
export function mismatchReason(body: unknown, result: unknown): string | undefined {
  const found = differences(body, result);
  if (found.length === 0) return undefined;
  const parts = found.map((d) => `${d.field}: ${HOLDS}${d.provider}${FOR_THIS_ID}${d.item}`);
  return `${parts.join('; ')}${NOT_SENT}`;
}

/** Whether a report's reason is `mismatchReason`'s (the item was not sent: its id held another). */
export function isMismatch(reason: string | undefined): boolean {
  return reason?.includes(FOR_THIS_ID) === true && reason.endsWith(NOT_SENT);
}

/**
 * An adopted payment's wait: the provider's transaction compared with the item on the
 * first status the wait sees (PENDING included, so that a difference ends the wait at
 * once) and on the final one. On a difference the wait rejects and `reason` is set.
 */
export class AdoptedCheck {
  readonly #body: unknown;
  /** Why the provider's transaction is not the item's; set once a difference is found. */
  reason: string | undefined;

  constructor(body: unknown) {
    this.#body = body;
  }

  /** Runs `wait` with `options` (their signal and an `onStatus` of its own added). */
  async wait<R, O extends { signal?: AbortSignal | undefined }>(
    options: O,
    wait: (options: O & { signal: AbortSignal; onStatus(result: unknown): void }) => Promise<R>,
  ): Promise<R> {
    const stop = new AbortController();
    const onStatus = (result: unknown) => {
      this.reason ??= mismatchReason(this.#body, result);
      if (this.reason !== undefined) stop.abort(new Error(this.reason));
    };
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const final = await wait({ ...options, signal, onStatus });
    onStatus(final);
    if (this.reason !== undefined) throw stop.signal.reason;
    return final;
  }
}

function compare(
  kind: Kind,
  theirs: unknown,
  mine: unknown,
): { provider: string; item: string } | undefined {
  switch (kind) {
    case 'decimal': {
      const [a, b] = [decimal(theirs), decimal(mine)];
      if (a === undefined || b === undefined) return undefined; // not a number: not compared
      return a === b ? undefined : { provider: String(theirs), item: String(mine) };
    }
    case 'code':
    case 'text': {
      if (!isScalar(theirs) || !isScalar(mine)) return undefined;
      const [a, b] = [String(theirs).trim(), String(mine).trim()];
      const same = kind === 'code' ? a.toUpperCase() === b.toUpperCase() : a === b;
      return same ? undefined : { provider: a, item: b };
    }
    case 'party':
      return compareParty(theirs, mine);
  }
}

function compareParty(
  theirs: unknown,
  mine: unknown,
): { provider: string; item: string } | undefined {
  const a = party(theirs);
  const b = party(mine);
  if (!a || !b || a.id === undefined || b.id === undefined) return undefined;
  const type = a.type !== undefined && b.type !== undefined ? [a.type, b.type] : undefined;
  if (type && type[0] !== type[1]) return { provider: a.text, item: b.text };
  const kind = a.type ?? b.type;
  return samePartyId(kind, a.id, b.id) ? undefined : { provider: a.text, item: b.text };
}

/** A party's id kind (upper case), its id and how a reason shows it. */
function party(value: unknown): { type?: string; id?: string; text: string } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { partyIdType, partyId } = value as { partyIdType?: unknown; partyId?: unknown };
  const type = typeof partyIdType === 'string' ? partyIdType.trim().toUpperCase() : undefined;
  const id = isScalar(partyId) ? String(partyId).trim() : undefined;
  const text = [type, id].filter((part) => part !== undefined).join(' ');
  return { ...(type === undefined ? {} : { type }), ...(id === undefined ? {} : { id }), text };
}

/**
 * Whether two party ids of kind `kind` name the same party: an MSISDN by its digits (the
 * provider may echo `+46 733 123 999` for `46733123999`: the SDK sends digits only, and
 * an international prefix `+` or `00`, spaces, dashes, dots and parentheses are how the
 * same number is written, as `normalizeMsisdn` reads them); an e-mail address without
 * regard to case; any other id as given.
 */
function samePartyId(kind: string | undefined, a: string, b: string): boolean {
  if (a === b) return true;
  if (kind === 'MSISDN') return msisdnDigits(a) === msisdnDigits(b);
  if (kind === 'EMAIL') return a.toLowerCase() === b.toLowerCase();
  return false;
}

function msisdnDigits(value: string): string {
  const compact = value.replace(/[\s\-.()]/g, '');
  if (compact.startsWith('+')) return compact.slice(1);
  if (compact.startsWith('00')) return compact.slice(2);
  return compact;
}

/** A decimal string (or number) in one form: no leading zeros, no trailing fraction zeros. */
function decimal(value: unknown): string | undefined {
  if (!isScalar(value)) return undefined;
  const match = /^(\d+)(?:\.(\d*))?$/.exec(String(value).trim());
  if (!match) return undefined;
  const whole = (match[1] as string).replace(/^0+(?=\d)/, '');
  const fraction = withoutTrailingZeros(match[2] ?? '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The value at a dotted path of an object, or undefined. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const name of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, name) ? (current as Record<string, unknown>)[name] : undefined;
  }
  return current;
}

function unknownFieldsOf(result: unknown): unknown {
  return result !== null && typeof result === 'object'
    ? (result as { unknownFields?: unknown }).unknownFields
    : undefined;
}
