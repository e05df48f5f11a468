/**
 * The parts of graphile-worker (0.17) the adapter uses, typed by their shape: the SDK never
 * imports graphile-worker (an optional peer, the partner's own copy), and these are
 * satisfied by its `makeWorkerUtils()` utilities and the `helpers` a task receives.
 */

/** One job of `addJobs`' list (`AddJobsJobSpec`: no `jobKeyMode` there). */
export interface GraphileJobsSpec {
  identifier: string;
  payload: unknown;
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** A job spec's options as graphile-worker's `addJob` takes them (`TaskSpec`). */
export interface GraphileJobSpec extends Omit<GraphileJobsSpec, 'identifier' | 'payload'> {
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
}

/** What both `makeWorkerUtils()` and a task's helpers have. */
export interface GraphileHelpers {
  addJob(identifier: string, payload: unknown, spec?: GraphileJobSpec): Promise<unknown>;
  withPgClient<T>(
    callback: (client: {
      query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
    }) => Promise<T>,
  ): Promise<T>;
}

/** `makeWorkerUtils()`'s utilities, as `addPayments` uses them. */
export interface GraphileWorkerUtils extends GraphileHelpers {
  addJobs(specs: readonly GraphileJobsSpec[], jobKeyPreserveRunAt?: boolean): Promise<unknown>;
}

/** The helpers graphile-worker hands a task (`JobHelpers`), as the SDK's tasks use them. */
export interface GraphileJobHelpers extends GraphileHelpers {
  job: { id: string; key?: string | null; attempts: number; locked_by?: string | null };
}

/** A task of a task list (`Task`). */
export type GraphileTask = (payload: unknown, helpers: GraphileJobHelpers) => Promise<void>;

/** A task list for `run({ taskList })` (`TaskList`). */
export type GraphileTaskList = Record<string, GraphileTask>;
