/**
 * The engine-neutral core under the job-engine adapters (docs/engines.md: momo-partner-sdk/bullmq,
 * momo-partner-sdk/graphile-worker). Not an entry of its own: each adapter imports it.
 * Every rule is the batch runner's (src/batches, src/payments): nothing here decides twice.
 *
 * API (stable; the adapters build on it):
 *
 * - `prepareItems({ batch, items, secret, operation? })` -> `{ jobs, rejected }`
 *   Checks every item first (its creating call's rules, keys unique in the call). `jobs`:
 *   one `{ jobId, data }` per item with a usable key, in input order: `data.kind` 'pay'
 *   (valid) or 'reject' (bad: the job records REJECTED with its reason in the store and
 *   sends nothing). `data` is plain JSON without any secret. `jobId` = `paymentJobId(batch,
 *   key, content)` (`momo-<hex>`): an engine de-dup hint only. `rejected`: every refused item
 *   `{ index, key, reason }` (bad ones, and keyless or repeated ones, which get no job).
 *
 * - `runPaymentJob(momo, { secret, store }, data, { deadline?, signal? })` -> `PaymentJobResult`
 *   Runs one job: claim in the store (15 s lease), send under derivedReferenceId(secret,
 *   batch, key) only when the store does not show it sent, adopt a 409 only when it is this
 *   item, wait, record the final outcome in the store. Runs twice (stalled, retried,
 *   re-added, killed worker): nothing sent twice. Results: `SUCCESSFUL` | `FAILED` |
 *   `REJECTED` (complete the job, no engine retry) or `PENDING` (not final by `deadline`,
 *   epoch ms, default now + 60 s; or held by another worker past it): add
 *   `lookupJob(data)` for later (it only looks up: the store shows the item sent).
 *   Rejects only on what a retry may cure (store unreachable, credentials): let the
 *   engine retry it.
 *
 * - `lookupJob(data)`: the PENDING job's data to add again (`lookup: true`).
 * - `await paymentJobId(batch, key, content?)`: the engine job id (content: what the job
 *   carries, so a changed item gets a job of its own).
 * - `DEFAULT_LEASE_MS` (15 s): a dead worker's item is taken over after it; set the
 *   engine's own lock/visibility at or under it so its jobs come back as soon.
 *
 * Subscriptions need no core: an adapter calls `subs.runDue()` (one pass at a time: the
 * subscription store's own lease keeps two passes from charging one period).
 */
export { DEFAULT_LEASE_MS } from '../payments/claims';
export { paymentJobId } from './job-id';
export { checkContext, lookupJob, type PaymentJobRunOptions, runPaymentJob } from './payment-job';
export { type PrepareItemsOptions, prepareItems } from './prepare';
export type {
  PaymentJobContext,
  PaymentJobData,
  PaymentJobResult,
  PreparedItems,
  PreparedJob,
} from './types';
