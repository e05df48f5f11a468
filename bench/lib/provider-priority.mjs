/**
 * The provider is another company's machine: a partner's processes never take its CPU.
 * On the bench's one machine they would. With 8 or more busy partner processes on 2 cores,
 * the simulator's process waits its turn, reads the requests that arrived meanwhile in a
 * bunch and counts them against its caps in the same second: a burst the SDK sent at 150
 * lookups/s was read as 186-214 in one second. So the process of a provider that counts
 * caps is given a higher scheduling priority (nice -10) where the system allows it (root,
 * or CAP_SYS_NICE); where it does not, the bench says so beside the figures.
 */
import { setPriority } from 'node:os';

const FAVOURED = -10;
let said = 'no capped provider was started';

/** Raises the provider's priority; returns what the bench prints about it. */
export function favourProvider(pid) {
  try {
    setPriority(pid, FAVOURED);
    said = `provider at nice ${FAVOURED}`;
  } catch (error) {
    said = `provider at default priority (raising it was refused: ${error.code ?? error.message}; its counts include its own CPU starvation)`;
  }
  return said;
}

/** What the last favourProvider() said, for a run's summary. */
export const providerPriority = () => said;
