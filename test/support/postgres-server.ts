import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { freePort } from '../redis/support/redis-server';

/**
 * Where initdb and pg_ctl live: `pg_config --bindir`, Debian's /usr/lib/postgresql/<v>/bin
 * (not on the PATH), or the PATH. Undefined when PostgreSQL is not installed.
 */
function findBinaries(): string | undefined {
  const candidates: string[] = [];
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

/** initdb refuses root: as root, the cluster is the `postgres` user's. */
const asRoot = process.getuid?.() === 0;

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

/** A scratch PostgreSQL cluster of our own: a temp directory, a free loopback port, trust auth. */
export class PostgresServer {
  readonly port: number;
  readonly #dir: string;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.#dir = dir;
  }

  /** initdb on a fresh directory, then starts it; resolves once it accepts connections. */
  static async start(): Promise<PostgresServer> {
    const dir = mkdtempSync(join(tmpdir(), 'momo-postgres-'));
    if (asRoot) chownSync(dir, uid('postgres'), gid('postgres'));
    const server = new PostgresServer(await freePort(), dir);
    server.#run('initdb', ['-D', server.#data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await server.restart();
    return server;
  }

  /** What `new pg.Pool(...)` needs to reach it. */
  get config(): { host: string; port: number; user: string; database: string } {
    return { host: '127.0.0.1', port: this.port, user: 'postgres', database: 'postgres' };
  }

  /** Starts it (again, on the same port and data) and waits until it accepts connections. */
  async restart(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.#dir}`,
      // A scratch cluster: no fsync (commits still commit; only an OS crash could lose them).
      '-c fsync=off',
      '-c max_connections=100',
    ].join(' ');
    const log = join(this.#dir, 'log');
    this.#run('pg_ctl', ['start', '-w', '-t', '60', '-D', this.#data, '-l', log, '-o', options]);
  }

  /** Stops it at once (`-m immediate`: as a crash would). */
  async stop(): Promise<void> {
    this.#run('pg_ctl', ['stop', '-D', this.#data, '-m', 'immediate'], true);
  }

  /** Stops it and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  get #data(): string {
    return join(this.#dir, 'data');
  }

  /** A PostgreSQL program, as the `postgres` user when we are root. */
  #run(program: string, args: string[], quiet = false): void {
    const path = join(postgresBin as string, program);
    const [command, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path, ...args]]
      : [path, args];
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: this.#dir });
    if (result.status !== 0 && !quiet) {
      throw new Error(`${program} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
  }
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
