// momo-partner-sdk/outbox: the relay that sends what the partner's transaction wrote
// (docs/outbox.md).
export { type CheckedOutboxIntent, checkOutboxIntent } from './intent';
export { startOutboxRelay } from './relay';
export type { OutboxRelay, OutboxRelayOptions } from './types';
