import { isDecimalText } from '../payments/decimal';
import { isDecimal as isWireDecimal } from '../schemas/rules';

/**
 * Exact decimal arithmetic for amounts and balances (strings on the wire, no floats).
 * A value is an integer count of 10^-scale units.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** A non-negative decimal string without sign or exponent: the wire's one rule. */
export function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && isWireDecimal(value);
}

/** A positive decimal string such as "100" or "12.50" (the amount rule). */
export function isAmount(value: unknown): value is string {
  return isDecimal(value) && parseDecimal(value).units > 0n;
}

export function parseDecimal(value: string): Decimal {
  if (!isDecimalText(value)) throw new TypeError(`not a decimal string: ${value}`);
  const fraction = value.split('.')[1] ?? '';
  return { units: BigInt(value.replace('.', '')), scale: fraction.length };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [
    a.units * 10n ** BigInt(scale - a.scale),
    b.units * 10n ** BigInt(scale - b.scale),
    scale,
  ];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export function compare(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** At least two decimals, as balances are usually shown ("999900.00"). */
export function formatDecimal(value: Decimal): string {
  const scale = Math.max(2, value.scale);
  const units = value.units * 10n ** BigInt(scale - value.scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
