/** When the relay tries again: a database that failed, a payment given back. */

/** Why a database error or a failed send is retried: the first try again after this long. */
export const FIRST_RETRY_MS = 1000;
/** The longest a payment is left before its next try. */
export const LAST_RETRY_MS = 60_000;

/** A database that failed is tried again after 250 ms doubling to 5 s. */
export const databaseRetryIn = (failures: number): number =>
  Math.min(5000, 250 * 2 ** Math.min(failures, 16));

/** 1 s doubling to 60 s, by how many times the payment was given back. */
export const retryIn = (attempts: number): number =>
  Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts, 16));
