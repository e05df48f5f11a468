import { describe, it } from 'vitest';
import { postgresBin } from '../../bench/lib/postgres-server.mjs';

/**
 * The scratch cluster (initdb and pg_ctl on a temp directory and a free loopback port, as
 * the `postgres` user under root) is bench/lib/postgres-server.mjs's: the bench starts
 * its own the same way.
 */
export {
  postgresBin,
  ScratchPostgres as PostgresServer,
} from '../../bench/lib/postgres-server.mjs';

/**
 * `describe` for suites that need a real PostgreSQL. In CI (`CI` set) missing binaries are
 * a failure, never a skip; locally the suite is skipped with a clear message.
 */
export function describeWithPostgres(name: string, suite: () => void): void {
  if (postgresBin) {
    describe(name, suite);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('needs PostgreSQL (CI installs it from Debian: apt-get install postgresql)', () => {
        throw new Error('initdb and pg_ctl not found on this CI machine');
      });
    });
    return;
  }
  console.warn(`[skipped] ${name}: PostgreSQL not installed (apt-get install postgresql)`);
  describe.skip(name, suite);
}
