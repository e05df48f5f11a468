import { isDecimal } from '../schemas/rules';

/**
 * The kernel's one decimal rule, for every driver (a batch's report, `payouts`' totals and
 * repeat guard, `reconcile`'s books, subscriptions' reports): the wire's rule
 * (src/schemas/rules.ts: digits, and a fraction after one dot; no sign, no exponent, at
 * most 23 characters), read as a person writes an amount (leading zeros allowed in books
 * and files: `0100.50` is `100.5`), and summed exactly (no floats).
 */

/** `007.50` → `7.5`, `10.00` → `10`: one spelling per amount (the text unchanged when it is none). */
export function canonicalDecimal(text: string): string {
  if (!isDecimalText(text)) return text;
  const [whole = '', fraction = ''] = text.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = withoutTrailingZeros(fraction);
  return decimals ? `${integer}.${decimals}` : integer;
}

/** Whether `text` is a decimal amount as the wire's rule says, leading and trailing zeros aside. */
export function isDecimalText(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const [whole = '', fraction, more] = text.split('.');
  if (more !== undefined || fraction === '') return false;
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = withoutTrailingZeros(fraction ?? '');
  // The wire's length cap applies to the amount's one spelling, not to its padding.
  return isDecimal(decimals ? `${integer}.${decimals}` : integer);
}

/**
 * `500` → `5`: a fraction's trailing zeros dropped, in one pass (`/0+$/` tries every start
 * on a long run of zeros followed by something else: quadratic on hostile input).
 */
export function withoutTrailingZeros(fraction: string): string {
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end -= 1;
  return fraction.slice(0, end);
}

/** Adds two non-negative decimal strings exactly ("10.5" + "0.25" = "10.75"). */
export function addDecimal(a: string, b: string): string {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const sum = BigInt(ai + af.padEnd(scale, '0')) + BigInt(bi + bf.padEnd(scale, '0'));
  const digits = sum.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
