import { ValidationError } from '../errors';
import { MAX_NAME_LENGTH, nameProblem } from '../payments/key-rules';

/** Longest batch id. */
export const MAX_BATCH_ID_LENGTH = MAX_NAME_LENGTH;

/**
 * A batch id is a non-empty string of at most 200 characters, well-formed, without
 * control characters (key-rules.ts); anything else is refused.
 */
export function checkBatchId(id: unknown, field = 'id'): asserts id is string {
  const problem =
    typeof id !== 'string'
      ? 'must be a string'
      : id.length === 0
        ? 'must not be empty'
        : nameProblem(id);
  if (problem) throw new ValidationError([{ path: field, message: problem }]);
}

const KEPT = /[A-Za-z0-9_-]/;

/**
 * The file name of a batch, distinct from every other batch's even on a case-insensitive
 * file system (macOS, Windows: `Payroll` and `payroll` must not share one file):
 * `batch-` then a readable lower-case prefix of the id (at most 40 of `a-z 0-9 _ - .`,
 * anything else `_`), then `-` and the first 32 hex digits (128 bits) of the SHA-256 of
 * the id's UTF-8 bytes, lower-case. No separator, `..` or NUL can appear, and the hash,
 * not the prefix, tells two ids apart. `sha256Hex` is node:crypto's, handed in by the
 * file store (the main entry imports no Node module).
 */
export function batchFileName(id: string, sha256Hex: (text: string) => string): string {
  const readable = id
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 40);
  return `batch-${readable}-${sha256Hex(id).slice(0, 32)}.jsonl`;
}

/**
 * The name earlier releases gave a batch's file: `batch-` then the id with every character
 * outside `A-Z a-z 0-9 _ -` (and `.`, except first) percent-encoded from its UTF-8 bytes
 * (one-to-one, but `Payroll` and `payroll` differ only by case). Undefined when it would
 * have been too long (such a file cannot exist). Read only, to continue those batches.
 */
export function legacyBatchFileName(id: string): string | undefined {
  let name = '';
  for (const char of id) {
    if (KEPT.test(char) || (char === '.' && name !== '')) name += char;
    else for (const byte of new TextEncoder().encode(char)) name += `%${hex(byte)}`;
  }
  const file = `batch-${name}.jsonl`;
  return file.length > MAX_FILE_NAME ? undefined : file;
}

/**
 * The batch id a file an earlier release named (`legacyBatchFileName`) is for, or
 * undefined for any other file (a current file names its id in its first line).
 */
export function batchIdOfLegacyFileName(file: string): string | undefined {
  const match = /^batch-(.+)\.jsonl$/.exec(file);
  if (!match) return undefined;
  try {
    const id = decodeURIComponent(match[1] as string);
    return legacyBatchFileName(id) === file ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Most file systems cap a name at 255 bytes. */
const MAX_FILE_NAME = 240;

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');
