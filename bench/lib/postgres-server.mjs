/**
 * A scratch PostgreSQL cluster of our own: `initdb` on a temp directory, `pg_ctl start` on
 * a free loopback port, trust auth, no fsync. Used by the bench (sections/postgres.mjs)
 * and by the tests (test/support/postgres-server.ts). As root, the cluster is the
 * `postgres` user's (initdb refuses root).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.mjs';

/**
 * Where initdb and pg_ctl live: `pg_config --bindir`, Debian's /usr/lib/postgresql/<v>/bin
 * (not on the PATH), or the PATH. Undefined when PostgreSQL is not installed.
 */
function findBinaries() {
  const candidates = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // No pg_config: look further.
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(':').filter(Boolean));
  return candidates.find(
    (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

/** The directory holding initdb and pg_ctl, or undefined. */
export const postgresBin = findBinaries();

const asRoot = process.getuid?.() === 0;

export class ScratchPostgres {
  #dir;

  #maxConnections;

  constructor(port, dir, maxConnections = 100) {
    this.port = port;
    this.#dir = dir;
    this.#maxConnections = maxConnections;
  }

  /**
   * initdb on a fresh directory, then starts it; resolves once it accepts connections.
   * `maxConnections` (default 100): the engines bench's 8 worker processes each hold a
   * pool as large as their job concurrency, as graphile-worker asks.
   */
  static async start({ maxConnections = 100 } = {}) {
    if (!postgresBin) throw new Error('PostgreSQL is not installed (initdb and pg_ctl not found)');
    const dir = mkdtempSync(join(tmpdir(), 'momo-postgres-'));
    if (asRoot) chownSync(dir, id('-u'), id('-g'));
    const server = new ScratchPostgres(await freePort(), dir, maxConnections);
    server.#run('initdb', ['-D', server.#data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await server.restart();
    return server;
  }

  /** What `new pg.Pool(...)` needs to reach it. */
  get config() {
    return { host: '127.0.0.1', port: this.port, user: 'postgres', database: 'postgres' };
  }

  /** Starts it (again, on the same port and data) and waits until it accepts connections. */
  async restart() {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.#dir}`,
      // A scratch cluster: no fsync (commits still commit; only an OS crash could lose them).
      '-c fsync=off',
      `-c max_connections=${this.#maxConnections}`,
    ].join(' ');
    const log = join(this.#dir, 'log');
    this.#run('pg_ctl', ['start', '-w', '-t', '60', '-D', this.#data, '-l', log, '-o', options]);
  }

  /** Stops it at once (`-m immediate`: as a crash would). */
  async stop() {
    this.#run('pg_ctl', ['stop', '-D', this.#data, '-m', 'immediate'], true);
  }

  /** Stops it and removes its directory. */
  async dispose() {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  get #data() {
    return join(this.#dir, 'data');
  }

  /** A PostgreSQL program, as the `postgres` user when we are root. */
  #run(program, args, quiet = false) {
    const path = join(postgresBin, program);
    const [command, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path, ...args]]
      : [path, args];
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: this.#dir });
    if (result.status !== 0 && !quiet) {
      throw new Error(`${program} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
  }
}

/** The `postgres` user's uid (`-u`) or gid (`-g`). */
function id(flag) {
  return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
}
