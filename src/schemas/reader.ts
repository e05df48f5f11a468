import type * as z from 'zod/mini';

/*
 * A reader compiled once from a zod/mini schema: it walks the schema's definition and
 * returns the value zod would give for a valid input, in one pass with no payloads, issue
 * lists or contexts. Anything it is not sure of (an invalid input, a kind of schema it
 * does not model) comes out as INVALID, and zod itself reads the input again and says
 * why. So zod stays the one authority on what is valid and on every message; this only
 * makes the common case cheap: zod's parse of a status lookup's answer was one of the
 * largest costs of a call. Guarded by the bench targets "32-way lookups" and "32-way
 * creating calls" against raw node:http (docs/performance.md: what the readers moved).
 * The schemas stay the one source of truth.
 */

/** What a reader gives when zod has to decide. */
export const INVALID: unique symbol = Symbol('invalid');
export type Reader = (value: unknown) => unknown;

type Schema = z.core.$ZodType;
type Payload = { value: unknown; issues: unknown[] };
type Check = {
  _zod: { check(payload: Payload): unknown; def: { when?: (p: Payload) => boolean } };
};

const readers = new WeakMap<Schema, Reader>();
/** Zod decides for every input of a schema this file does not model. */
export const zodOnly: Reader = () => INVALID;
/** Schemas read once, by zod: a reader is compiled when one is read again. */
const readOnce = new WeakSet<Schema>();

/**
 * The reader of `schema`. The first read of a schema is zod's, so a schema read once (a
 * token, a balance at start-up) costs no compiling; the second compiles its reader.
 */
export function readerOf(schema: Schema): Reader {
  const reader = readers.get(schema);
  if (reader !== undefined) return reader;
  if (!readOnce.has(schema)) {
    readOnce.add(schema);
    return zodOnly;
  }
  return compiledReaderOf(schema);
}

/** The reader of `schema`, compiled now if it was not yet. */
export function compiledReaderOf(schema: Schema): Reader {
  let reader = readers.get(schema);
  if (reader === undefined) {
    reader = compile(schema) ?? zodOnly;
    readers.set(schema, reader);
  }
  return reader;
}

function compile(schema: Schema): Reader | undefined {
  const { def, traits } = schema._zod;
  // A check schema (a refinement) is its own first check, as in zod's $ZodType.
  const checks = [...(traits.has('$ZodCheck') ? [schema] : []), ...(def.checks ?? [])];
  const base = compileType(schema);
  return base && (checks.length ? withChecks(base, checks as unknown as Check[]) : base);
}

/** Zod's own checks, run as zod runs them after a successful parse; any issue is INVALID. */
function withChecks(base: Reader, checks: Check[]): Reader {
  return (input) => {
    const payload: Payload = { value: base(input), issues: [] };
    if (payload.value === INVALID) return INVALID;
    for (const { _zod: check } of checks) {
      if (check.def.when?.(payload) === false) continue;
      if (check.check(payload) instanceof Promise || payload.issues.length) return INVALID;
    }
    return payload.value;
  };
}

/** What the kinds of schema below keep in their definitions. */
interface Def {
  type: string;
  coerce?: boolean;
  inclusive?: boolean;
  element: Schema;
  options: Schema[];
  innerType?: Schema;
  in: Schema;
  out: Schema;
  transform: (value: unknown, payload: Payload) => unknown;
}

/** The parts each composite kind is read through. */
const PARTS: Record<string, (def: Def) => Schema[]> = {
  array: (def) => [def.element],
  union: (def) => def.options,
  optional: (def) => [def.innerType as Schema],
  pipe: (def) => [def.in, def.out],
};

/** The kinds of schema the SDK's schemas are made of; any other kind is left to zod. */
function compileType(schema: Schema): Reader | undefined {
  const { def, traits } = schema._zod as unknown as { def: Def; traits: Set<string> };
  const { type } = def;
  if (def.coerce) return;
  switch (type) {
    case 'string':
    case 'number':
    case 'boolean':
      // zod's number is finite: no NaN, no Infinity.
      return (v) => (typeof v === type && (type !== 'number' || Number.isFinite(v)) ? v : INVALID);
    case 'unknown':
      return (v) => v;
    case 'enum': {
      const values = schema._zod.values;
      return values && ((v) => (values.has(v as never) ? v : INVALID));
    }
    case 'object':
      return objectReader(def as unknown as z.core.$ZodObjectDef);
    case 'transform':
      return transformReader(def.transform);
  }
  // An exact or defaulted optional, an exclusive union and a codec are left to zod.
  const exact = traits.has('$ZodExactOptional') || traits.has('$ZodCodec');
  if (exact || def.inclusive === false || def.innerType?._zod.optin === 'defaulted') return;
  const parts = PARTS[type] && partsOf((PARTS[type] as (def: Def) => Schema[])(def));
  const [first, then] = parts ?? [];
  if (!first) return;
  switch (type) {
    case 'optional':
      return (v) => (v === undefined ? v : first(v));
    case 'pipe':
      return then && ((v) => pipe(first(v), then));
    case 'array':
      return (v) => (Array.isArray(v) ? arrayOf(v, first) : INVALID);
    default:
      return (v) => firstOf(v, parts as Reader[]); // union
  }
}

const pipe = (value: unknown, then: Reader) => (value === INVALID ? INVALID : then(value));

function arrayOf(items: unknown[], read: Reader) {
  const out = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = read(items[i]);
    if (out[i] === INVALID) return INVALID;
  }
  return out;
}

/** zod's union: the first option that passes. */
function firstOf(value: unknown, options: Reader[]) {
  for (const option of options) {
    const read = option(value);
    if (read !== INVALID) return read;
  }
  return INVALID;
}

/** Compiles every part first: one part zod must always read makes the whole so. */
function partsOf(schemas: Schema[]): Reader[] | undefined {
  const parts = schemas.map(compiledReaderOf);
  return parts.includes(zodOnly) ? undefined : parts;
}

function transformReader(transform: (value: unknown, payload: Payload) => unknown): Reader {
  return (v) => {
    const payload: Payload = { value: v, issues: [] };
    const out = transform(v, payload);
    return out instanceof Promise || payload.issues.length ? INVALID : out;
  };
}

/**
 * zod's object: known keys in shape order, then (loose) unknown keys as sent; a key the
 * input lacks is left out when its schema allows absence (zod's handlePropertyResult, for
 * schemas with no default: those are left to zod).
 */
function objectReader(def: z.core.$ZodObjectDef): Reader | undefined {
  const { shape } = def;
  const catchall = def.catchall?._zod.def.type;
  if (
    Object.getOwnPropertySymbols(shape).length ||
    (catchall && catchall !== 'unknown' && catchall !== 'never')
  )
    return;
  const keys = Object.keys(shape).filter((key) => key !== '__proto__');
  const parts = partsOf(keys.map((key) => shape[key] as Schema));
  if (!parts) return;
  const fields = keys.map((key, i) => {
    const { optin, optout } = (shape[key] as Schema)._zod;
    return { key, read: parts[i] as Reader, optin, skipped: optout === 'optional' && optin };
  });
  const known = new Set(Object.keys(shape));
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return INVALID;
    const source = input as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const { key, read, optin, skipped } of fields) {
      const present = key in source;
      if (!present && skipped) continue;
      const value = read(source[key]);
      if (value === INVALID || (!present && !optin)) return INVALID;
      if (value !== undefined || present) out[key] = value;
    }
    for (const key in catchall ? source : {}) {
      if (known.has(key)) continue;
      if (catchall === 'never') return INVALID;
      if (key !== '__proto__') out[key] = source[key];
    }
    return out;
  };
}
