/** Options shared by the Redis token store, callback bus and journal. */
export interface RedisOptions {
  /**
   * Prepended to every key and channel, so that several apps share one Redis. Default
   * `momo:`. No braces: the SDK sets its own Redis Cluster hash tags around it.
   */
  prefix?: string;
  /** A command not answered within this long counts as Redis being down. Default 1 000. */
  commandTimeoutMs?: number;
}
