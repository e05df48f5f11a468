import { ValidationError, type ValidationIssue } from '../errors';
import { UUID_V4 } from '../schemas/common';
import { parseWith } from '../schemas/validate';
import type { Authorizer, CallInput } from './call';
import type { Config } from './config';
import type { Operation } from './operation';
import { buildPath, checkCallbackUrl } from './url';

export interface PreparedRequest {
  path: string;
  body: string | undefined;
  /** The callback URL template (`{referenceId}` not yet filled), if any. */
  callbackTemplate: string | undefined;
}

/**
 * Checks everything a call was given (path parameters, body, options) and reports every
 * problem at once as a ValidationError: a bad input never reaches the network.
 */
export function prepare(
  op: Operation<unknown, unknown>,
  input: CallInput,
  config: Config,
  auth: Authorizer,
) {
  const issues: ValidationIssue[] = [];
  const params = input.params ?? {};
  for (const [name, schema] of Object.entries(op.params ?? {})) {
    const parsed = parseWith(schema, params[name], name);
    if (!parsed.ok) issues.push(...parsed.issues);
  }
  const path = buildPath(op.path, params, issues);

  let body: string | undefined;
  if (op.body) {
    const parsed = parseWith(op.body, input.body);
    if (parsed.ok) body = encode(parsed.value, op.encoding);
    else issues.push(...parsed.issues);
  }

  const options = input.options ?? {};
  issues.push(...checkOptions(op, options, config));
  const authProblem = auth.problem(op, options);
  if (authProblem) issues.push(authProblem);
  const template = options.callbackUrl ?? config.callbackUrl;
  if (issues.length > 0) throw new ValidationError(dedupe(issues), { operation: op.name });

  // Strings only: a call queued behind the in-flight limit holds these and little else.
  return { path, body, callbackTemplate: template } satisfies PreparedRequest;
}

const CONTENT_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
} as const;

/** The Content-Type of a body this operation sends. */
export function contentTypeOf(op: Operation<unknown, unknown>): string {
  return CONTENT_TYPES[op.encoding ?? 'json'];
}

function encode(data: unknown, encoding: Operation['encoding']): string {
  if (encoding !== 'form') return JSON.stringify(data);
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    if (value !== undefined) form.append(name, String(value));
  }
  return form.toString();
}

function checkOptions(
  op: Operation<unknown, unknown>,
  options: NonNullable<CallInput['options']>,
  config: Config,
) {
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string) => issues.push({ path: `options.${path}`, message });
  if (options === null || typeof options !== 'object') {
    bad('', 'must be an object');
    return issues;
  }
  if (options.referenceId !== undefined) {
    if (!op.creates) bad('referenceId', 'is only for creating calls');
    else if (typeof options.referenceId !== 'string' || !UUID_V4.test(options.referenceId)) {
      bad('referenceId', 'must be a UUID version 4');
    }
  }
  if (options.tag !== undefined) {
    if (!op.creates) bad('tag', 'is only for creating calls');
    else if (!isTag(options.tag)) {
      bad('tag', `must be 1 to ${MAX_TAG} characters, well-formed, without control characters`);
    }
  }
  if (options.callbackUrl !== undefined) {
    const problem = checkCallbackUrl(options.callbackUrl, config);
    if (problem) bad('callbackUrl', problem);
  }
  if (
    options.timeoutMs !== undefined &&
    !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)
  ) {
    bad('timeoutMs', 'must be a positive number of milliseconds');
  }
  if (
    options.maxRetries !== undefined &&
    !(Number.isInteger(options.maxRetries) && options.maxRetries >= 0)
  ) {
    bad('maxRetries', 'must be a whole number, 0 or more');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    bad('signal', 'must be an AbortSignal');
  }
  if (options.headers !== undefined) {
    const ok =
      options.headers !== null &&
      typeof options.headers === 'object' &&
      Object.values(options.headers).every((v) => typeof v === 'string');
    if (!ok) bad('headers', 'must map header names to strings');
    else {
      for (const [name, value] of Object.entries(options.headers)) {
        if (!HEADER_NAME.test(name)) bad(`headers.${name}`, 'is not a valid header name');
        else if (!HEADER_VALUE.test(value)) {
          bad(`headers.${name}`, 'must not contain line breaks or control characters');
        }
      }
    }
  }
  return issues;
}

/** A batch's tag is `<batch id>/<item key>`: each at most 200 characters
 * (docs/assumptions.md, SE2). */
const MAX_TAG = 401;
/** A lone surrogate (half of a character): no encoding can carry it. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A journal entry's caller tag: printable, well-formed and bounded (it is stored with every entry). */
function isTag(tag: unknown): boolean {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > MAX_TAG) return false;
  for (let i = 0; i < tag.length; i++) {
    const code = tag.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return !LONE_SURROGATE.test(tag);
}

/** RFC 9110 field names (tokens) and values: what any HTTP stack would refuse to send. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
