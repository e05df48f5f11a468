/**
 * How the simulator learns whose a transaction is (docs/simulator.md, "Batches on the
 * page"). A creating call's caller tag (its `tag` option: a batch's `<batch id>/<item
 * key>`) is recorded in the client's journal and never sent to a provider. A client sends
 * it in {@link TAG_HEADER} only when it was set up for the simulator: the client option
 * `simulatorTags: true` (`sim.client()` sets it; the CLI's `payouts` against a loopback
 * base URL). Never inferred from an answer: an upstream that says it is the simulator
 * ({@link SIMULATOR_HEADER}, on every answer of the simulated API) gets no tag for it.
 */

/** On every answer of the simulated API: "this server is the simulator". */
export const SIMULATOR_HEADER = 'x-momo-simulator';
/** On a creating request to the simulator: the call's caller tag, percent-encoded. */
export const TAG_HEADER = 'x-momo-simulator-tag';
