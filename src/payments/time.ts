/**
 * The core's one sleep, for the kernel's drivers (batches, the outbox, subscriptions),
 * which reach the core only through the kernel.
 */
export { pause, sleep, wakeableSleep } from '../core/time';
