import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  CsvError,
  type CsvRow,
  csvField,
  csvLine,
  LineWriter,
  readCsvRecords,
  readCsvRows,
} from '../../src/cli/csv';

async function rows(source: Parameters<typeof readCsvRows>[0], maxRecordChars?: number) {
  const found: CsvRow[] = [];
  const options = maxRecordChars === undefined ? {} : { maxRecordChars };
  for await (const row of readCsvRows(source, options)) found.push(row);
  return found;
}

/** The text as chunks cut at `cuts` (positions). */
async function* chunked(text: string, ...cuts: number[]) {
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    yield text.slice(from, cut);
    from = cut;
  }
}

async function failure(run: () => Promise<unknown>): Promise<CsvError> {
  const error = await run().then(
    () => new Error('expected a CsvError'),
    (e: unknown) => e,
  );
  if (!(error instanceof CsvError)) throw error;
  return error;
}

const TRICKY =
  'key,msisdn,note\r\n' +
  'a-1,0244000001,"Paid, with thanks"\r\n' +
  'a-2,0244000002,"He said ""hi"""\n' +
  'a-3,0244000003,"two\r\nlines"\r' +
  'a-4,,""\n' +
  '\n' +
  'a-5,0244000005,last';

const TRICKY_ROWS: CsvRow[] = [
  { line: 1, fields: ['key', 'msisdn', 'note'] },
  { line: 2, fields: ['a-1', '0244000001', 'Paid, with thanks'] },
  { line: 3, fields: ['a-2', '0244000002', 'He said "hi"'] },
  { line: 4, fields: ['a-3', '0244000003', 'two\r\nlines'] },
  { line: 6, fields: ['a-4', '', ''] },
  { line: 8, fields: ['a-5', '0244000005', 'last'] },
];

describe('CSV reader (RFC 4180)', () => {
  it('reads quoted commas, doubled quotes, line breaks in quotes, CRLF, LF and CR line ends, and skips blank lines', async () => {
    expect(await rows(chunked(TRICKY))).toEqual(TRICKY_ROWS);
  });

  it('gives the same records and lines wherever the chunks are cut', async () => {
    for (let cut = 0; cut <= TRICKY.length; cut++) {
      expect(await rows(chunked(TRICKY, cut)), `cut at ${cut}`).toEqual(TRICKY_ROWS);
    }
    // One character a chunk: every field, quote pair and line end spans chunks.
    const everywhere = Array.from({ length: TRICKY.length }, (_, at) => at);
    expect(await rows(chunked(TRICKY, ...everywhere))).toEqual(TRICKY_ROWS);
    const bytes = new TextEncoder().encode(`\uFEFF${TRICKY}`);
    for (let cut = 0; cut <= bytes.length; cut += 7) {
      const stream = Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(await rows(stream), `byte cut at ${cut}`).toEqual(TRICKY_ROWS);
    }
  });

  it('keeps no chunk alive through a field: 1,000 long keys kept hold only themselves', async () => {
    setFlagsFromString('--expose-gc'); // this test only: a full collection on demand
    const gc = runInNewContext('gc') as () => void;
    const heapUsed = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const kept: string[] = [];
    const before = heapUsed();
    await (async () => {
      // One 14 MB chunk; every key has 25-30 characters, long enough to be a view in V8.
      const text = Array.from(
        { length: 400_000 },
        (_, i) => `payroll-2026-12-employee-${i},1.00\n`,
      );
      for await (const row of readCsvRows(chunked(text.join('')))) {
        if (row.line % 400 === 0) kept.push(row.fields[0] as string);
      }
    })();
    const grown = heapUsed() - before;
    expect(kept).toHaveLength(1_000);
    expect(kept[0]).toBe('payroll-2026-12-employee-399');
    expect(grown).toBeLessThan(4_000_000); // the chunk kept would be 14 MB
  });

  it('keeps every field a string as written: leading zeros, spaces, plus signs', async () => {
    expect(await rows(chunked('007, 0244 ,+233244000000,1.50\n'))).toEqual([
      { line: 1, fields: ['007', ' 0244 ', '+233244000000', '1.50'] },
    ]);
  });

  it('drops a byte-order mark, in text or in bytes, and ignores one trailing line end', async () => {
    expect(await rows(chunked('\uFEFFa,b\n'))).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    const bytes = Buffer.from('\uFEFFa,b\r\n', 'utf8');
    expect(await rows(Readable.from([bytes.subarray(0, 2), bytes.subarray(2)]))).toEqual([
      { line: 1, fields: ['a', 'b'] },
    ]);
  });

  it('reads empty fields, a quoted empty field, and a final line without a line end', async () => {
    expect(await rows(chunked(',\n""\na,"b"'))).toEqual([
      { line: 1, fields: ['', ''] },
      { line: 2, fields: [''] },
      { line: 3, fields: ['a', 'b'] },
    ]);
  });

  it('reads a file by its path, and a Node Readable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csv-'));
    const file = join(dir, 'payees.csv');
    writeFileSync(file, 'key,msisdn\n1,0244000001\n');
    const expected = [
      { line: 1, fields: ['key', 'msisdn'] },
      { line: 2, fields: ['1', '0244000001'] },
    ];
    expect(await rows(file)).toEqual(expected);
    expect(await rows(Readable.from(['key,msisdn\n1,', '0244000001\n']))).toEqual(expected);
  });

  it('an unterminated quote is an error naming the line it opened on', async () => {
    const error = await failure(() => rows(chunked('a,b\nc,"open\nmore\nstill')));
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/^line 2: a quoted field opened on line 2 is never closed/);
  });

  it('a quote inside an unquoted field, or text after a closing quote, is an error naming the line', async () => {
    const inside = await failure(() => rows(chunked('a,b\nc,d"e\n')));
    expect(inside).toMatchObject({ line: 2 });
    expect(inside.message).toMatch(/^line 2: a quote inside an unquoted field/);
    const after = await failure(() => rows(chunked('a\n"x\ny"z,1\n')));
    expect(after).toMatchObject({ line: 3 });
    expect(after.message).toMatch(/^line 3: text after the closing quote/);
  });

  it('invalid UTF-8 is an error, and so is a record longer than the bound', async () => {
    const bad = Readable.from([Buffer.from('a,b\n'), Buffer.from([0x63, 0xff, 0x0a])]);
    expect((await failure(() => rows(bad))).message).toMatch(/not UTF-8 text/);
    const long = await failure(() => rows(chunked(`a\n"${'x'.repeat(100)}`), 50));
    expect(long).toMatchObject({ line: 2 });
    expect(long.message).toMatch(/longer than 50 characters/);
  });
});

describe('CSV records (header row)', () => {
  async function records(text: string, required?: string[]) {
    const found = [];
    for await (const record of readCsvRecords(chunked(text), required ? { required } : {})) {
      found.push({ line: record.line, values: record.values });
    }
    return found;
  }

  it('names each field by its (trimmed) column, with the line of the record', async () => {
    expect(await records(' key ,amount\n"k,1",10\n\nk2,20\n', ['key'])).toEqual([
      { line: 2, values: { key: 'k,1', amount: '10' } },
      { line: 4, values: { key: 'k2', amount: '20' } },
    ]);
  });

  it('a record with too many or too few fields is an error naming its line', async () => {
    const error = await failure(() => records('key,amount\nk1,10\nk2,1,000\n'));
    expect(error).toMatchObject({ line: 3 });
    expect(error.message).toMatch(/^line 3: 3 fields where the header has 2/);
  });

  it('onHeader gets the header, before the first record and for a file of no records', async () => {
    const seen: string[] = [];
    const onHeader = (header: readonly string[]) => seen.push(`header ${header.join('|')}`);
    for await (const record of readCsvRecords(chunked(' key ,amount\nk1,10\n'), { onHeader })) {
      seen.push(`record ${record.line}`);
    }
    for await (const _ of readCsvRecords(chunked('key,msisdn\r\n'), { onHeader }))
      seen.push('none');
    expect(seen).toEqual(['header key|amount', 'record 2', 'header key|msisdn']);
  });

  it('a missing required column, a repeated or empty column name, and an empty file are errors', async () => {
    const missing = await failure(() => records('key,amount\n', ['key', 'currency']));
    expect(missing).toMatchObject({ line: 1, column: 'currency' });
    expect(missing.message).toContain('no "currency" column');
    expect(await failure(() => records('key,key\n'))).toMatchObject({ line: 1, column: 'key' });
    expect((await failure(() => records('key,,x\n'))).message).toContain('column 2');
    expect((await failure(() => records('\n\n'))).message).toContain('empty');
  });
});

describe('CSV writer', () => {
  it('quotes fields with commas, quotes or line breaks, doubles quotes, ends lines with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ''])).toBe(
      'a,"b,c","say ""hi""","two\nlines",\r\n',
    );
  });

  it('guards cells a spreadsheet would run as formulas, but not plain numbers', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-1+2')).toBe("'-1+2");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('-5')).toBe('-5');
    expect(csvField('+233244000000')).toBe('+233244000000');
    expect(csvField('10.50')).toBe('10.50');
    expect(csvField('=1', { formulaGuard: false })).toBe('=1');
  });

  it('what it writes reads back as the same fields', async () => {
    const fields = ['0244000001', 'a,b', 'q"uote', 'line\r\nbreak', '', ' spaced '];
    const text = csvLine(fields) + csvLine(['x', 'y', 'z', '', '', '']);
    expect((await rows(chunked(text))).map((row) => row.fields)).toEqual([
      fields,
      ['x', 'y', 'z', '', '', ''],
    ]);
  });

  it('a LineWriter writes every line whole and in order, across its buffer and past it', async () => {
    const written: Buffer[] = [];
    const sink = {
      write: async (bytes: Uint8Array, offset: number, length: number) => {
        written.push(Buffer.from(bytes.subarray(offset, offset + length)));
      },
    };
    const lines = new LineWriter(sink);
    // Multi-byte characters land on the buffer's edge; one line is larger than the buffer.
    const all = [
      ...Array.from({ length: 5_000 }, (_, i) => csvLine([`row-${i}`, 'Zoë ₵ 💸', String(i)])),
      csvLine(['big', 'x'.repeat(100_000)]),
      csvLine(['last', 'é']),
    ];
    for (const line of all) await lines.add(line);
    expect(written.length).toBeGreaterThan(1); // the buffer was written out on the way
    await lines.flush();
    await lines.flush(); // nothing left: writes nothing
    expect(Buffer.concat(written).toString('utf8')).toBe(all.join(''));
  });
});
