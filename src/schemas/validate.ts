import type * as z from 'zod/mini';
import type { ValidationIssue } from '../errors';

/** zod issues as `{ path, message }`, with paths dotted and messages in plain words. */
export function toIssues(error: z.core.$ZodError, basePath = ''): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = [basePath, ...issue.path.map(String)].filter(Boolean).join('.');
    return { path, message: describe(issue) };
  });
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export function parseWith<T>(schema: z.ZodMiniType<T>, input: unknown, path = ''): ParseResult<T> {
  const result = schema.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toIssues(result.error, path) };
}
