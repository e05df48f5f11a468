import { InMemoryJournal } from 'momo-partner-sdk';
import { it } from 'vitest';
import { expectHandMadeTenantsStamped } from '../support/hand-made-tenants';

// TN8: a client made by hand with `tenant` stamps its journal entries with it, on a
// journal of its own (the in-memory one here; Redis and PostgreSQL in their folders).
it("a hand-made tenant client's in-memory journal entries carry its tenant; reconcile and resume keep to them", async () => {
  await expectHandMadeTenantsStamped(new InMemoryJournal());
});
