// The operation tables are internal: the batch runner's and reconciliation's own maps of
// operations are checked against them.
import type { TableOperation } from '../../src/products/endpoints';
import { operationTables } from '../../src/products/tables';

/** Every creating operation the tables confirm by a status lookup, with that lookup. */
export const confirmedOperations = new Map<string, TableOperation>();
for (const table of Object.values(operationTables)) {
  for (const op of Object.values(table) as TableOperation[]) {
    const lookup = (op as { confirmedBy?: TableOperation }).confirmedBy;
    if (lookup && !confirmedOperations.has(op.name)) confirmedOperations.set(op.name, lookup);
  }
}
