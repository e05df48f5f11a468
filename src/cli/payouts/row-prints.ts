import { createHmac } from 'node:crypto';
import { canonicalDecimal } from '../../payments/decimal';

/**
 * What makes two rows "the same payment" for the repeat guard: the same party in the
 * same role (payee or payer), the same amount (as a decimal: `10.5` = `10.50`) and the
 * same currency. Keys, externalId, notes, extra columns and the rows' order do not count.
 * A row's print is the first 8 bytes of HMAC-SHA256(the batch secret, those values): the
 * state folder then holds no list of who was paid how much that could be guessed back.
 */
export function rowPrint(
  secret: string,
  role: string,
  party: { partyIdType?: unknown; partyId?: unknown } | undefined,
  amount: string,
  currency: string,
): bigint {
  const kind = String(party?.partyIdType ?? '')
    .trim()
    .toUpperCase();
  const text = JSON.stringify([
    'momo-payouts-row:v1',
    role,
    kind,
    samePartyText(kind, String(party?.partyId ?? '')),
    canonicalDecimal(amount),
    currency,
  ]);
  return createHmac('sha256', secret).update(text).digest().readBigUInt64BE(0);
}

/**
 * One spelling per party, as the provider tells parties apart (the SDK's own comparison
 * with a provider's transaction, payments/verify.ts, reads them alike): an MSISDN by its
 * digits (`+46 733-123 999`, `0046733123999` and `46733123999` are one number), an e-mail
 * address and a party code (a UUID) in any letter case. `ANNA@shop.example` paid this
 * morning is the `anna@shop.example` of the afternoon's file.
 */
function samePartyText(kind: string, id: string): string {
  const trimmed = id.trim();
  if (kind === 'MSISDN') {
    const compact = trimmed.replace(/[\s\-.()]/g, '');
    if (compact.startsWith('+')) return compact.slice(1);
    return compact.startsWith('00') ? compact.slice(2) : compact;
  }
  return kind === 'EMAIL' || kind === 'PARTY_CODE' ? trimmed.toLowerCase() : trimmed;
}

/** The prints of a file's payable rows, 8 bytes each (100,000 rows: 800 KB). */
export class RowPrints {
  #prints = new BigUint64Array(1024);
  #size = 0;

  add(print: bigint): void {
    if (this.#size === this.#prints.length) {
      const grown = new BigUint64Array(this.#prints.length * 2);
      grown.set(this.#prints);
      this.#prints = grown;
    }
    this.#prints[this.#size++] = print;
  }

  /** Sorted (a multiset: a payment twice in the file counts twice). */
  sorted(): BigUint64Array {
    return this.#prints.slice(0, this.#size).sort();
  }
}

/** How many prints two sorted multisets share. */
export function common(a: BigUint64Array, b: BigUint64Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as bigint;
    const y = b[j] as bigint;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/** The union of two sorted multisets (each print as many times as in the one holding it more). */
export function union(a: BigUint64Array, b: BigUint64Array): BigUint64Array {
  const out = new BigUint64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) out[n++] = a[i++] as bigint;
    else if (x === undefined || y < x) out[n++] = b[j++] as bigint;
    else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  return out.slice(0, n);
}

export const printsToText = (prints: BigUint64Array): string =>
  Buffer.from(prints.buffer, prints.byteOffset, prints.byteLength).toString('base64');

export function printsFromText(text: string): BigUint64Array {
  const bytes = Buffer.from(text, 'base64');
  const copy = new Uint8Array(bytes.length - (bytes.length % 8));
  copy.set(bytes.subarray(0, copy.length));
  return new BigUint64Array(copy.buffer);
}
