import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';

/**
 * How the CLI opens the temporary file it renames over a results file or a report: a new
 * file (`O_CREAT | O_EXCL`: never an existing file, nor the target of a symlink planted
 * under its name), not followed if it is a symlink (`O_NOFOLLOW` where the platform has
 * it), under a name nobody can guess (`<target>.<pid>.<16 random hex digits>.tmp`),
 * readable by its owner only (0600). A shared output folder cannot make a run truncate
 * or overwrite another file (docs/security.md).
 */
const FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const MODE = 0o600;

/** A temporary file being written, beside the file it will replace. */
export interface TemporaryFile {
  readonly path: string;
  readonly file: FileHandle;
}

/** `<target>.<pid>.<random>.tmp`: the pid says whose it is (leftovers of dead runs are removed). */
export function temporaryName(target: string): string {
  return `${target}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`;
}

/** The pid in a temporary file's name beside `target`, or undefined when it is not one. */
export function temporaryOwner(target: string, name: string): number | undefined {
  const base = target.slice(Math.max(target.lastIndexOf('/'), target.lastIndexOf('\\')) + 1);
  if (!name.startsWith(`${base}.`)) return undefined;
  // The current name, and `<pid>.tmp` of the releases before it.
  const match = /^(\d+)(?:\.[0-9a-f]{16})?\.tmp$/.exec(name.slice(base.length + 1));
  return match ? Number(match[1]) : undefined;
}

/** Creates a new private temporary file beside `target` (see above). */
export async function openTemporary(target: string): Promise<TemporaryFile> {
  const path = temporaryName(target);
  return { path, file: await open(path, FLAGS, MODE) };
}

/**
 * Flushes and closes `temporary`, then renames it over `target` (a rename replaces a
 * symlink at `target` itself, never the file it points to). On failure the temporary
 * file is removed and the error thrown.
 */
export async function commitTemporary(temporary: TemporaryFile, target: string): Promise<void> {
  try {
    await temporary.file.datasync();
  } catch (error) {
    await discardTemporary(temporary);
    throw error;
  }
  await temporary.file.close();
  try {
    await rename(temporary.path, target);
  } catch (error) {
    await rm(temporary.path, { force: true });
    throw error;
  }
}

/** Closes and removes a temporary file that will not be used. */
export async function discardTemporary(temporary: TemporaryFile): Promise<void> {
  await temporary.file.close().catch(() => {});
  await rm(temporary.path, { force: true });
}

/** Replaces `target` with `text`, through a private temporary file (see above). */
export async function replaceFile(target: string, text: string): Promise<void> {
  const temporary = await openTemporary(target);
  try {
    await temporary.file.writeFile(text);
  } catch (error) {
    await discardTemporary(temporary);
    throw error;
  }
  await commitTemporary(temporary, target);
}
