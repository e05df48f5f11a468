import { InMemoryJournal } from 'momo-partner-sdk';
import { describe, it } from 'vitest';
import { platformScenario } from './platform-scenario';

describe('an operation is only looked up or resumed on the platform it was sent to', () => {
  it('in-memory journal: sent to A, listed but never sent or looked up on B, settled on A', async () => {
    const journal = new InMemoryJournal();
    await platformScenario(() => journal);
  });
});
