import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from '../errors';

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

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export function parseWith<T>(schema: z.ZodMiniType<T>, input: unknown, path = ''): ParseResult<T> {
  const result = schema.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toIssues(result.error, path) };
}

/** Parses an input that is not a body or path parameter; a bad one throws, nothing is sent. */
export function validateInput<T>(
  schema: z.ZodMiniType<T>,
  input: unknown,
  path: string,
  operation: string,
): T {
  const parsed = parseWith(schema, input, path);
  if (parsed.ok) return parsed.value;
  throw new ValidationError(parsed.issues, { operation });
}
