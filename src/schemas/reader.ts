import type * as z from 'zod/mini';

/*
 * A reader compiled once from a zod/mini schema: it walks the schema's definition and
 * returns the value zod would give for a valid input, in one pass with no payloads, issue
 * lists or contexts. Anything it is not sure of (an invalid input, a kind of schema it
 * does not model) comes out as INVALID, and zod itself reads the input again and says
 * why. So zod stays the one authority on what is valid and on every message; this only
 * makes the common case cheap (a status lookup's answer: 7 µs in zod, one of the largest
 * costs of a call; docs/performance.md). The schemas stay the one source of truth.
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
  const base = compileType(schema);
  if (base === undefined) return undefined;
  const internals = schema._zod;
  // A check schema (a refinement) is its own first check, as in zod's $ZodType.
  const checks = [
    ...(internals.traits.has('$ZodCheck') ? [schema as unknown as Check] : []),
    ...((internals.def.checks ?? []) as unknown as Check[]),
  ];
  return checks.length === 0 ? base : withChecks(base, checks);
}

/** Zod's own checks, run as zod runs them after a successful parse; any issue is INVALID. */
function withChecks(base: Reader, checks: Check[]): Reader {
  return (input) => {
    const value = base(input);
    if (value === INVALID) return INVALID;
    const payload: Payload = { value, issues: [] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when(payload)) continue;
      if (check._zod.check(payload) instanceof Promise || payload.issues.length > 0) return INVALID;
    }
    return payload.value;
  };
}

function compileType(schema: Schema): Reader | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (def.coerce) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : INVALID);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : INVALID);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : INVALID);
    case 'null':
      return (v) => (v === null ? v : INVALID);
    case 'unknown':
    case 'any':
      return (v) => v;
    case 'custom':
      return (v) => v; // its function is its check (compile adds it)
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      return values ? (v) => (values.has(v as never) ? v : INVALID) : undefined;
    }
    case 'array':
      return arrayReader(def.element as Schema);
    case 'object':
      return objectReader(def as unknown as z.core.$ZodObjectDef);
    case 'union':
      return def.inclusive === false ? undefined : unionReader(def.options as Schema[]);
    case 'optional':
      return optionalReader(schema, def.innerType as Schema);
    case 'nullable':
      return nullableReader(def.innerType as Schema);
    case 'default':
      return defaultReader(def as unknown as z.core.$ZodDefaultDef);
    case 'pipe':
      return schema._zod.traits.has('$ZodCodec')
        ? undefined
        : pipeReader(def.in as Schema, def.out as Schema);
    case 'transform':
      return transformReader(def.transform as (value: unknown, payload: Payload) => unknown);
    default:
      return undefined;
  }
}

/** Compiles every part first: one part zod must always read makes the whole so. */
function partsOf(schemas: Schema[]): Reader[] | undefined {
  const parts = schemas.map((s) => compiledReaderOf(s));
  return parts.includes(zodOnly) ? undefined : parts;
}

function arrayReader(element: Schema): Reader | undefined {
  const [item] = partsOf([element]) ?? [];
  if (!item) return undefined;
  return (v) => {
    if (!Array.isArray(v)) return INVALID;
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const read = item(v[i]);
      if (read === INVALID) return INVALID;
      out[i] = read;
    }
    return out;
  };
}

function unionReader(options: Schema[]): Reader | undefined {
  const parts = partsOf(options);
  if (!parts) return undefined;
  return (v) => {
    for (const part of parts) {
      const read = part(v);
      if (read !== INVALID) return read; // zod's union takes the first option that passes
    }
    return INVALID;
  };
}

function optionalReader(schema: Schema, inner: Schema): Reader | undefined {
  const [read] = partsOf([inner]) ?? [];
  if (!read) return undefined;
  if (schema._zod.traits.has('$ZodExactOptional')) return read;
  if (inner._zod.optin !== 'defaulted') return (v) => (v === undefined ? v : read(v));
  return (v) => {
    if (v !== undefined) return read(v);
    const substituted = read(v); // a defaulted inner substitutes; a failure there is undefined
    return substituted === INVALID ? undefined : substituted;
  };
}

function nullableReader(inner: Schema): Reader | undefined {
  const [read] = partsOf([inner]) ?? [];
  return read && ((v) => (v === null ? v : read(v)));
}

function defaultReader(def: z.core.$ZodDefaultDef): Reader | undefined {
  const [read] = partsOf([def.innerType]) ?? [];
  if (!read) return undefined;
  return (v) => {
    if (v === undefined) return def.defaultValue;
    const value = read(v);
    return value === undefined ? def.defaultValue : value;
  };
}

function pipeReader(from: Schema, to: Schema): Reader | undefined {
  const [first, then] = partsOf([from, to]) ?? [];
  if (!first || !then) return undefined;
  return (v) => {
    const value = first(v);
    return value === INVALID ? INVALID : then(value);
  };
}

function transformReader(transform: (value: unknown, payload: Payload) => unknown): Reader {
  return (v) => {
    const payload: Payload = { value: v, issues: [] };
    const out = transform(v, payload);
    return out instanceof Promise || payload.issues.length > 0 ? INVALID : out;
  };
}

interface Field {
  key: string;
  read: Reader;
  /** zod's optin/optout: whether absence is allowed, and whether it stays absent. */
  optin: 'optional' | 'defaulted' | undefined;
  optional: boolean;
}

/** zod's object: known keys in shape order, then (loose) unknown keys as sent. */
function objectReader(def: z.core.$ZodObjectDef): Reader | undefined {
  const shape = def.shape;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const keys = Object.keys(shape).filter((key) => key !== '__proto__');
  const parts = partsOf(keys.map((key) => shape[key] as Schema));
  if (!parts) return undefined;
  const fields: Field[] = keys.map((key, i) => {
    const internals = (shape[key] as Schema)._zod;
    return {
      key,
      read: parts[i] as Reader,
      optin: internals.optin,
      optional: internals.optout === 'optional',
    };
  });
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never') return undefined;
  const known = new Set(Object.keys(shape));
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return INVALID;
    const source = input as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of fields) if (!readField(field, source, out)) return INVALID;
    if (catchall === undefined) return out;
    for (const key in source) {
      if (known.has(key)) continue;
      if (catchall === 'never') return INVALID;
      if (key !== '__proto__') out[key] = source[key];
    }
    return out;
  };
}

/** zod's handlePropertyResult, for a field that read without an issue (or could not). */
function readField(field: Field, source: Record<string, unknown>, out: Record<string, unknown>) {
  const { key, optin, optional } = field;
  const present = key in source;
  if (!present && optional && optin === 'optional') return true;
  const value = field.read(source[key]);
  if (value === INVALID) return !present && optional && optin !== undefined;
  if (!present && optin === undefined) return false;
  if (value !== undefined) out[key] = value;
  else if (present || (optin === 'defaulted' && !optional)) out[key] = undefined;
  return true;
}
