/** RFC 4180 CSV for the CLI (Node only: not part of the main entry). */
export { CsvError, CsvParser, type CsvRow, DEFAULT_MAX_RECORD_CHARS } from './parser';
export {
  type CsvReadOptions,
  type CsvRecord,
  type CsvRecordOptions,
  type CsvSource,
  readCsvRecords,
  readCsvRows,
} from './read';
export { type ByteSink, type CsvWriteOptions, csvField, csvLine, LineWriter } from './write';
