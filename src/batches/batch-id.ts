import { ValidationError } from '../errors';

/** Longest batch id (a file store also refuses one whose encoded file name is too long). */
export const MAX_BATCH_ID_LENGTH = 200;

/** A batch id is a non-empty string of at most 200 characters; anything else is refused. */
export function checkBatchId(id: unknown, field = 'id'): asserts id is string {
  const problem =
    typeof id !== 'string'
      ? 'must be a string'
      : id.length === 0
        ? 'must not be empty'
        : id.length > MAX_BATCH_ID_LENGTH
          ? `must be at most ${MAX_BATCH_ID_LENGTH} characters`
          : undefined;
  if (problem) throw new ValidationError([{ path: field, message: problem }]);
}

const KEPT = /[A-Za-z0-9_-]/;

/**
 * The file name of a batch: `batch-` then the id with every character outside
 * `A-Z a-z 0-9 _ -` (and `.`, except first) percent-encoded from its UTF-8 bytes. No
 * separator, `..` or NUL survives, so an id cannot name a path outside the folder, and
 * the encoding is one-to-one, so two ids never share a file.
 */
export function batchFileName(id: string): string {
  let name = '';
  for (const char of id) {
    if (KEPT.test(char) || (char === '.' && name !== '')) name += char;
    else for (const byte of new TextEncoder().encode(char)) name += `%${hex(byte)}`;
  }
  const file = `batch-${name}.jsonl`;
  if (file.length > MAX_FILE_NAME) {
    throw new ValidationError([
      { path: 'id', message: 'is too long for a file name once encoded (use fewer symbols)' },
    ]);
  }
  return file;
}

/**
 * The batch id a file of `batchFileName` is named for, or undefined for a file that is
 * not a batch's (another name, or one `batchFileName` would not give).
 */
export function batchIdOfFileName(file: string): string | undefined {
  const match = /^batch-(.+)\.jsonl$/.exec(file);
  if (!match) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
  try {
    return batchFileName(id) === file ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Most file systems cap a name at 255 bytes. */
const MAX_FILE_NAME = 240;

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');
