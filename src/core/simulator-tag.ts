/**
 * How the simulator learns whose a transaction is (docs/simulator.md, "Batches on the
 * page"). A creating call's caller tag (its `tag` option: a batch's `<batch id>/<item
 * key>`) is recorded in the client's journal and never sent to a provider. A client sends
 * it in {@link TAG_HEADER} only when the first answer it got carried
 * {@link SIMULATOR_HEADER}, which every answer of the simulated API does and a real
 * provider's never does.
 */

/** On every answer of the simulated API: "this server is the simulator". */
export const SIMULATOR_HEADER = 'x-momo-simulator';
/** On a creating request to the simulator: the call's caller tag, percent-encoded. */
export const TAG_HEADER = 'x-momo-simulator-tag';
