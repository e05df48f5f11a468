import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from '../errors';
import type { LazySchema } from './lazy';
import { INVALID, readerOf } from './reader';

/** zod issues as `{ path, message }`, with paths dotted and messages in plain words. */
export function toIssues(error: z.core.$ZodError, basePath = ''): ValidationIssue[] {
  const dotted = (...parts: PropertyKey[]) =>
    [basePath, ...parts.map(String)].filter(Boolean).join('.');
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: dotted(...issue.path, key),
          message: 'is not a known field',
        }))
      : [{ path: dotted(...issue.path), message: describe(issue) }],
  );
}

/** What zod says when a check has no message of its own (no zod locale is loaded). */
const NO_MESSAGE = 'Invalid input';

/**
 * The schema's own words when it has them; otherwise what was expected and what came.
 * Values are never echoed (a misplaced credential must not reach a message), only kinds.
 */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.message && issue.message !== NO_MESSAGE) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, got ${kindOf(issue.input)}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${unit(issue.origin)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${unit(issue.origin)}`;
    case 'invalid_format':
      return `must be in ${issue.format} format`;
    case 'invalid_union':
      return `is not of an accepted kind (got ${kindOf(issue.input)})`;
    default:
      return 'is not valid';
  }
}

const EXPECTED: Partial<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

const unit = (origin: string) =>
  origin === 'string' ? ' characters' : origin === 'array' ? ' entries' : '';

/** The kind of a value, in words: "a number", "an array", "null". */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return `a ${typeof value}`;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export function parseWith<T>(schema: LazySchema<T>, input: unknown, path = ''): ParseResult<T> {
  const built = schema() as z.ZodMiniType<T>;
  const read = readerOf(built)(input);
  if (read !== INVALID) return { ok: true, value: read as T };
  // zod decides, and says why. reportInput: the messages tell "got a number" from "is required".
  const result = built.safeParse(input, { reportInput: true });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toIssues(result.error, path) };
}

/** Parses an input that is not a body or path parameter; a bad one throws, nothing is sent. */
export function validateInput<T>(
  schema: LazySchema<T>,
  input: unknown,
  path: string,
  operation: string,
): T {
  const parsed = parseWith(schema, input, path);
  if (parsed.ok) return parsed.value;
  throw new ValidationError(parsed.issues, { operation });
}
