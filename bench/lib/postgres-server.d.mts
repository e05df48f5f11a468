/** The directory holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export declare const postgresBin: string | undefined;

/** A scratch PostgreSQL cluster of our own: a temp directory, a free loopback port, trust auth. */
export declare class ScratchPostgres {
  readonly port: number;
  private constructor(port: number, dir: string);
  /** initdb on a fresh directory, then starts it; resolves once it accepts connections. */
  static start(): Promise<ScratchPostgres>;
  /** What `new pg.Pool(...)` needs to reach it. */
  get config(): { host: string; port: number; user: string; database: string };
  /** Starts it (again, on the same port and data) and waits until it accepts connections. */
  restart(): Promise<void>;
  /** Stops it at once (`-m immediate`: as a crash would). */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}
