/** Plain-text tables and number formats for the bench's output. */

/** Columns in `left` (default: the first) are aligned left, the others (figures) right. */
export function table(title, header, rows, { left = [0] } = {}) {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => String(row[i] ?? '').length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) => {
        const text = String(cell ?? '');
        return left.includes(i) ? text.padEnd(widths[i]) : text.padStart(widths[i]);
      })
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

const missing = (value) => value === undefined || value === null || Number.isNaN(value);

/** 12,345 (no decimals) */
export const int = (value) => (missing(value) ? 'n/a' : Math.round(value).toLocaleString('en-US'));

/** 1.2 (one decimal) */
export const dec = (value, digits = 1) => (missing(value) ? 'n/a' : value.toFixed(digits));

/** 0.62x (two significant digits below 0.1x: 0.0021x) */
export const ratio = (value) => {
  if (missing(value) || !Number.isFinite(value)) return 'n/a';
  return `${Math.abs(value) < 0.1 ? value.toPrecision(2) : value.toFixed(2)}x`;
};

/** 1.5 s */
export const seconds = (ms) => (missing(ms) ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
