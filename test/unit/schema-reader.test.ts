import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
// The compiled readers are internal: this test reads every schema where it is declared.
import { callbackBody } from '../../src/callbacks/parse';
import { operationTables } from '../../src/products/tables';
import { compiledReaderOf, INVALID, zodOnly } from '../../src/schemas/reader';
import { accessTokenResponse } from '../../src/schemas/token';
import { transactionResult } from '../../src/schemas/transactions';
import { parseWith } from '../../src/schemas/validate';

// A compiled reader must never accept what zod refuses, nor read anything differently
// from zod: same fields, same values, same key order. It may hand any input to zod.

type Schema = z.core.$ZodType;

/** Every schema an operation uses (path parameters, body, result), the token's, a callback's. */
function everySchema(): Map<string, Schema> {
  const schemas = new Map<string, Schema>([
    ['token', accessTokenResponse() as Schema],
    ['callback', callbackBody() as Schema],
  ]);
  for (const [product, table] of Object.entries(operationTables)) {
    for (const [name, op] of Object.entries(table) as [string, Record<string, unknown>][]) {
      const add = (what: string, lazy: unknown) => {
        if (typeof lazy === 'function') schemas.set(`${product}.${name}.${what}`, lazy());
      };
      add('body', op.body);
      add('result', op.result);
      for (const [param, lazy] of Object.entries((op.params ?? {}) as object)) add(param, lazy);
    }
  }
  return schemas;
}

/** A small seeded generator (mulberry32): failures replay. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T,
  };
}
type Random = ReturnType<typeof random>;

const STRINGS = [
  '',
  'abc',
  '100',
  '100.50',
  '0',
  '-1',
  '1e3',
  ' 12 ',
  '46733123450',
  '+46733123450',
  'EUR',
  'UGX',
  '12.505',
  'x'.repeat(300),
  'Pay\u200Bment',
  'MSISDN',
  'EMAIL',
  'PENDING',
  'SUCCESSFUL',
  'FAILED',
  'CREATED',
  'x'.repeat(200),
  'ok@example.com',
  '2026-01-01',
  '2026-01-01T00:00:00Z',
  '6c2f1fb2-07e6-4f4a-9f84-3d5c2c6e0b1a',
  'NOT-A-UUID',
  'true',
  'en',
  'sv',
  'Bearer',
  'available',
  'openid',
  'profile',
];
const ANYTHING = [null, true, false, 0, 1.5, -2, Number.NaN, 'str', [], {}, [1, 'a'], { a: 1 }];

const accepted = new WeakMap<Schema, string[]>();
/** The strings of STRINGS that a string schema accepts (its checks: pattern, length). */
function validStrings(schema: Schema): string[] {
  let valid = accepted.get(schema);
  if (!valid) {
    valid = STRINGS.filter((s) => (schema as z.ZodMiniType).safeParse(s).success);
    accepted.set(schema, valid);
  }
  return valid;
}

/** A value for `schema`: usually one it accepts, sometimes not, sometimes odd. */
function sample(schema: Schema, rnd: Random, depth = 0): unknown {
  if (rnd.chance(0.04) || depth > 6) return rnd.pick([undefined, ...ANYTHING]);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const values = schema._zod.values;
  switch (def.type) {
    case 'string': {
      const valid = validStrings(schema);
      return valid.length && rnd.chance(0.9) ? rnd.pick(valid) : rnd.pick(STRINGS);
    }
    case 'number':
      return rnd.pick([0, 1, 2.5, -3, 1e21, 1_000_000, Number.POSITIVE_INFINITY]);
    case 'boolean':
      return rnd.chance(0.5);
    case 'enum':
    case 'literal':
      return rnd.chance(0.9) && values ? rnd.pick([...values]) : 'NOT_ONE_OF_THEM';
    case 'array':
      return Array.from({ length: rnd.pick([0, 1, 2, 3]) }, () =>
        sample(def.element as Schema, rnd, depth + 1),
      );
    case 'object':
      return sampleObject(def.shape as Record<string, Schema>, rnd, depth);
    case 'union':
      return sample(rnd.pick(def.options as Schema[]), rnd, depth + 1);
    case 'optional':
    case 'nullable':
    case 'default':
      return rnd.chance(0.25)
        ? rnd.pick([undefined, null])
        : sample(def.innerType as Schema, rnd, depth + 1);
    case 'pipe':
      return sample(def.in as Schema, rnd, depth + 1);
    default:
      return rnd.pick(ANYTHING);
  }
}

function sampleObject(shape: Record<string, Schema>, rnd: Random, depth: number) {
  const out: Record<string, unknown> = {};
  if (rnd.chance(0.3)) out.somethingNew = rnd.pick(ANYTHING); // before known keys: order
  for (const [key, field] of Object.entries(shape)) {
    const optional = field._zod.optin !== undefined;
    if (optional && rnd.chance(0.4)) continue;
    if (rnd.chance(0.03)) continue; // a required field missing
    out[key] = optional && rnd.chance(0.05) ? undefined : sample(field, rnd, depth + 1);
  }
  if (rnd.chance(0.2)) out.zLater = rnd.pick(ANYTHING);
  return out;
}

/** Key order and undefined values count: JSON.stringify would hide both. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    return Object.entries(value).map(([k, v]) => [k, v === undefined ? '(undefined)' : shapeOf(v)]);
  }
  return Number.isNaN(value) ? '(NaN)' : value;
}

describe('compiled schema readers', () => {
  const schemas = everySchema();

  it('cover every schema of every operation (none is left to zod alone)', () => {
    expect(schemas.size).toBeGreaterThan(60);
    const uncompiled = [...schemas]
      .filter(([, s]) => compiledReaderOf(s) === zodOnly)
      .map(([n]) => n);
    expect(uncompiled).toEqual([]);
  });

  it('read every input exactly as zod does, or hand it to zod', () => {
    const rnd = random(20261124);
    let agreed = 0;
    let handed = 0;
    for (const [name, schema] of schemas) {
      for (let i = 0; i < 400; i++) {
        const input = sample(schema, rnd);
        const read = compiledReaderOf(schema)(structuredClone(input));
        const zod = (schema as z.ZodMiniType).safeParse(structuredClone(input));
        if (read === INVALID) {
          handed++;
          continue;
        }
        expect({ name, input, success: zod.success }).toEqual({ name, input, success: true });
        expect(shapeOf(read), name).toEqual(shapeOf(zod.data));
        agreed++;
      }
    }
    // Most samples are valid: the readers do the work, zod the exceptions.
    expect(agreed).toBeGreaterThan(handed);
  });

  it('hands zod every invalid input, so its messages are unchanged', () => {
    const lookup = transactionResult;
    const parsed = parseWith(lookup, { status: 7, amount: {} });
    expect(parsed).toEqual({
      ok: false,
      issues: [
        { path: 'amount', message: 'is not of an accepted kind (got an object)' },
        { path: 'status', message: 'must be a string, got a number' },
      ],
    });
  });

  it('reads a status lookup the way its type says, unknown fields kept', () => {
    const lookup = transactionResult;
    const body = {
      amount: 100,
      currency: 'EUR',
      status: 'FAILED',
      reason: 'NOT_ENOUGH_FUNDS',
      x: 1,
    };
    expect(parseWith(lookup, body)).toEqual({
      ok: true,
      value: {
        amount: '100',
        currency: 'EUR',
        status: 'FAILED',
        reason: { code: 'NOT_ENOUGH_FUNDS' },
        unknownFields: { x: 1 },
      },
    });
  });
});
