import type { BatchOutcome, BatchRecord, BatchStore } from '../contracts/batch-store';
import { ValidationError } from '../errors';
import {
  batchFileName,
  batchIdOfLegacyFileName,
  checkBatchId,
  legacyBatchFileName,
} from './batch-id';
import { LocalHandle, type LocalLog } from './local-handle';

/** node:fs and node:path, loaded at first use: the main entry imports no Node module. */
const fsModule = () => process.getBuiltinModule('node:fs');
const pathModule = () => process.getBuiltinModule('node:path');
const sha256Hex = (text: string) =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A batch store in a folder: one append-only JSON-lines file per batch (its name: see
 * fileNameOf, batch-id.ts). Each intent is
 * written and flushed to disk (fdatasync) before the item's first send; outcomes are
 * appended without a flush (one lost costs a lookup on the re-run). A crash mid-write
 * leaves a torn last line, which the next open ignores and cuts off. One process per
 * batch: several processes on one file would not see each other's claims.
 */
export function fileBatchStore(dir: string): BatchStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new ValidationError([{ path: 'dir', message: 'must be a folder path' }]);
  }
  const open = new Map<string, LocalHandle>();
  return {
    async open(id) {
      checkBatchId(id);
      let handle = open.get(id);
      if (!handle) {
        const file = prepare(dir, fileNameOf(dir, id), id);
        const log = appendLog(file, () => open.delete(id));
        handle = new LocalHandle(id, log, load(file));
        open.set(id, handle);
      }
      return handle;
    },
    async *batches() {
      let names: string[];
      try {
        names = fsModule().readdirSync(dir);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') return; // nothing recorded yet
        throw error;
      }
      for (const name of names.sort()) {
        const id = idInFile(dir, name) ?? batchIdOfLegacyFileName(name);
        if (id !== undefined) yield id;
      }
    },
  };
}

/**
 * The batch's file name: the one an earlier release wrote for exactly this id when the
 * folder holds it (listed under that exact name: on a case-insensitive file system
 * `batch-payroll.jsonl` of batch `payroll` must not be taken for batch `Payroll`), used in
 * place (not renamed, so that the earlier release still finds it); else the
 * collision-free name of batchFileName.
 */
function fileNameOf(dir: string, id: string): string {
  const fs = fsModule();
  const legacy = legacyBatchFileName(id);
  const current = batchFileName(id, sha256Hex);
  if (legacy === undefined || legacy === current) return current;
  const path = pathModule().join(dir, legacy);
  if (!fs.existsSync(path)) return current;
  return fs.readdirSync(dir).includes(legacy) ? legacy : current;
}

/**
 * The batch's file path, its folder created (and flushed, so the new file's entry lasts).
 * A new file begins with the line naming its batch (its name holds a hash of the id).
 */
function prepare(dir: string, fileName: string, id: string): string {
  const fs = fsModule();
  fs.mkdirSync(dir, { recursive: true });
  const file = pathModule().join(dir, fileName);
  if (!fs.existsSync(file)) {
    const fd = fs.openSync(file, 'a');
    try {
      fs.writeSync(fd, `${JSON.stringify({ type: 'batch', id })}\n`);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    syncFolder(dir);
  }
  return file;
}

/** The batch id a current batch file names in its first line, or undefined. */
function idInFile(dir: string, name: string): string | undefined {
  if (!/^batch-.+\.jsonl$/.test(name)) return undefined;
  const fs = fsModule();
  const fd = fs.openSync(pathModule().join(dir, name), 'r');
  try {
    const head = new Uint8Array(2048); // an id is at most 200 characters
    const text = new TextDecoder().decode(
      head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)),
    );
    const line = JSON.parse(text.slice(0, text.indexOf('\n'))) as { type?: unknown; id?: unknown };
    return line.type === 'batch' && typeof line.id === 'string' ? line.id : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function syncFolder(dir: string): void {
  const fs = fsModule();
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms cannot open or flush a folder; the file's own flushes still hold.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

type Line =
  | { type: 'batch'; id: string }
  | {
      type: 'intent';
      key: string;
      operation: string;
      fingerprint: string;
      referenceId: string;
      tenant?: string;
    }
  | ({ type: 'outcome'; key: string } & BatchOutcome);

/**
 * The records a file holds. A last line without its newline is a write a crash cut short:
 * it is ignored and cut off (so the next append starts on a line of its own). A complete
 * line that does not parse is corruption, not a crash: an error naming the line.
 */
function load(file: string): BatchRecord[] {
  const fs = fsModule();
  const bytes = fs.readFileSync(file);
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) fs.truncateSync(file, end);
  const records = new Map<string, BatchRecord>();
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  lines.pop(); // the empty string after the last newline
  lines.forEach((line, index) => {
    const entry = parseLine(line, file, index + 1);
    if (entry.type === 'batch') return;
    if (entry.type === 'intent') {
      const { type: _, ...intent } = entry;
      if (!records.has(intent.key)) records.set(intent.key, intent);
    } else {
      const record = records.get(entry.key);
      const { type: _, key: __, ...outcome } = entry;
      if (record) record.outcome = outcome;
    }
  });
  return [...records.values()];
}

function parseLine(line: string, file: string, number: number): Line {
  try {
    const entry = JSON.parse(line) as Line;
    if (entry.type === 'intent' || entry.type === 'outcome' || entry.type === 'batch') {
      return entry;
    }
  } catch {
    // reported below
  }
  throw new Error(`batch file ${file}: line ${number} is not a batch record (corrupted?)`);
}

/** Appends to the batch's file: intents flushed to disk before they count as recorded. */
function appendLog(file: string, onClose: () => void): LocalLog {
  const fs = fsModule();
  let fd: number | undefined = fs.openSync(file, 'a');
  const write = (line: Line) => {
    fd ??= fs.openSync(file, 'a');
    fs.writeSync(fd, `${JSON.stringify(line)}\n`);
    return fd;
  };
  return {
    intent(record) {
      fs.fdatasyncSync(write({ type: 'intent', ...record }));
    },
    outcome(key, outcome) {
      write({ type: 'outcome', key, ...outcome });
    },
    close() {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
      onClose();
    },
  };
}
