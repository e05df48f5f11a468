// momo-partner-sdk/batches: pay a list exactly once (docs/batches.md). A driver taking a
// client, so a partner who makes one payment ships none of it.
export { Batches } from './batches';
export { fileBatchStore } from './file-store';
export { memoryBatchStore } from './memory-store';
export type { BatchReportOptions } from './stored-report';
export type {
  BatchItem,
  BatchItemStatus,
  BatchOperation,
  BatchProgress,
  BatchReport,
  BatchReportItem,
  BatchRunOptions,
  BatchSummary,
  SettledBatchItem,
} from './types';
