import { describe, expect, it } from 'vitest';
import { csvField, readCsvRows } from '../../src/cli/csv';

// The results and reports CSV: every cell a spreadsheet could read as a formula is
// guarded (OWASP: a leading `'`), not only those whose first character starts one.
// Each bypass of a first-character guard, as the audit found them.
describe('the formula guard of the CSV the CLI writes', () => {
  it.each([
    ['a leading newline', '\n=HYPERLINK("http://x","y")', `"'\n=HYPERLINK(""http://x"",""y"")"`],
    ['leading CR LF', '\r\n=1+1', `"'\r\n=1+1"`],
    ['leading spaces', '   =1+1', "'   =1+1"],
    ['a leading no-break space', '\u00a0@SUM(A1)', "'\u00a0@SUM(A1)"],
    ['a leading quote', '"=1+1', `"'""=1+1"`],
    ['full-width equals', '＝HYPERLINK("http://x")', `"'＝HYPERLINK(""http://x"")"`],
    ['full-width plus', '＋1+1', "'＋1+1"],
    ['full-width minus', '－1+1', "'－1+1"],
    ['full-width at', '＠SUM(A1)', "'＠SUM(A1)"],
    ['a tab', '\tcmd', "'\tcmd"],
    ['a carriage return', '\rcmd', `"'\rcmd"`],
    ['split at ;', 'x;=HYPERLINK("http://x","y")', `"'x;'=HYPERLINK(""http://x"",""y"")"`],
    ['split at ; after a space', 'x; =1+1', "'x; '=1+1"],
    ['split at ,', 'x,@SUM(A1)', `"'x,'@SUM(A1)"`],
    ['split at a tab', 'x\t+1+1', "'x\t'+1+1"],
    ['split at |', 'x|-1+A1', "'x|'-1+A1"],
    ['split at a line break', 'note\n=cmd|x', `"'note\n'=cmd|x"`],
    ['split at ; into full-width', 'x;＝1', "'x;'＝1"],
    ['two formulas', '=1;=2', "'=1;'=2"],
  ])('%s is guarded', (_, value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it.each([
    ['a negative amount', '-5'],
    ['a negative decimal', '-10.50'],
    ['an international MSISDN', '+233244000000'],
    ['an amount', '10.50'],
    ['a date', '2026-11-27'],
    ['an e-mail address', 'jane.doe@example.com'],
    ['a reason', 'PAYEE_NOT_FOUND: No such payee.'],
    ['numbers split at ;', '5;-5;+233244000000'],
    ['a thousands separator', '1,000.50'],
  ])('%s is written as it is', (_, value) => {
    expect(csvField(value).replace(/^"|"$/g, '')).toBe(value);
  });

  it('a guarded cell still reads back as one field, the guard kept', async () => {
    const value = 'x;=HYPERLINK("http://x","y")';
    const rows = [];
    const text = async function* () {
      yield `${csvField(value)},next\r\n`;
    };
    for await (const row of readCsvRows(text())) rows.push(row.fields);
    expect(rows).toEqual([[`'x;'=HYPERLINK("http://x","y")`, 'next']]);
  });
});
