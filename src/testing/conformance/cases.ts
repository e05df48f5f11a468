/**
 * The frame every conformance suite shares: a suite is a list of named cases, each an
 * async function that throws on a broken promise. `checkCases` runs them one after the
 * other (each over a fresh store) and reports, whatever runner (or none) the partner uses.
 */
import { ValidationError } from 'momo-partner-sdk';

/** One case of a conformance suite: a name saying what the contract promises, and its check. */
export interface ConformanceCase {
  /** What the contract promises, e.g. "fences off the writes of an owner whose lease was taken over". */
  readonly name: string;
  /** Runs the case over a fresh store; rejects with what was broken. */
  run(): Promise<void>;
}

/** What a conformance check resolves to. */
export interface ConformanceReport {
  /** The contract checked: `journal`, `token store`, `batch store` or `outbox store`. */
  readonly suite: string;
  /** True when no case failed. */
  readonly ok: boolean;
  /** The cases that held. */
  readonly passed: string[];
  /** The cases that did not apply to this store (e.g. `lock` cases of a store without `lock`). */
  readonly skipped: string[];
  /** The cases that failed, each with what it found. */
  readonly failed: { case: string; error: unknown }[];
}

/** Options every conformance check takes. */
export interface ConformanceOptions {
  /**
   * Lets `ms` pass on the store's clock (leases, lock and token expiries). Default: waits
   * `ms` of real time. A store on `Date.now()` may be driven by fake timers instead.
   */
  pass?: ((ms: number) => Promise<void> | void) | undefined;
  /**
   * The lease (and lock ttl) the timing cases take, in ms. Default 1000: each timing case
   * waits about twice this. Raise it when the store's clock is coarse or the machine slow.
   */
  leaseMs?: number | undefined;
  /** Names of cases not to run (reported as skipped), e.g. a promise your store does not make. */
  skip?: readonly string[] | undefined;
}

/** A case that does not apply to the store: reported as skipped, not failed. */
export class NotApplicable extends Error {
  override name = 'NotApplicable';
}

/** What the cases of a suite share: the options, filled in. */
export interface CaseContext {
  pass(ms: number): Promise<void>;
  leaseMs: number;
}

/** The options filled in; a bad one (or a `make` that is no function) is a ValidationError naming it. */
export function caseContext(make: unknown, options: ConformanceOptions = {}): CaseContext {
  const issues: { path: string; message: string }[] = [];
  if (typeof make !== 'function') {
    issues.push({ path: 'make', message: 'must be a function giving a store over fresh state' });
  }
  const leaseMs = options.leaseMs ?? 1_000;
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 10) {
    issues.push({ path: 'leaseMs', message: 'must be a number of milliseconds, at least 10' });
  }
  if (options.pass !== undefined && typeof options.pass !== 'function') {
    issues.push({ path: 'pass', message: 'must be a function (ms) => void | Promise<void>' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  const pass = options.pass;
  return {
    leaseMs,
    pass: async (ms) => {
      if (pass) await pass(ms);
      else await new Promise((resolve) => setTimeout(resolve, ms));
    },
  };
}

/** Another store object over the same state (a restarted process's); default the same object. */
export type Reopen<S> = (store: S) => S | Promise<S>;

/** A case of a store contract: what it promises, and its check over a fresh store. */
export type StoreCase<S> = [
  name: string,
  run: (store: S, ctx: CaseContext, reopen: Reopen<S>) => Promise<void>,
];

/**
 * A store contract's cases, each over a fresh store from `make()`: what `xCases(make)`
 * gives for any test runner, and `checkCases` runs for `checkX(make)`.
 */
export function storeCases<S>(
  cases: readonly StoreCase<S>[],
  make: () => S | Promise<S>,
  options: ConformanceOptions & { reopen?: Reopen<S> | undefined } = {},
): ConformanceCase[] {
  const ctx = caseContext(make, options);
  const reopen = options.reopen ?? ((store: S) => store);
  return cases.map(([name, run]) => ({ name, run: async () => run(await make(), ctx, reopen) }));
}

/** Runs every case in order (never two at once: they may share a server) and reports. */
export async function checkCases(
  suite: string,
  cases: readonly ConformanceCase[],
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const skip = new Set(options.skip ?? []);
  const passed: string[] = [];
  const skipped: string[] = [];
  const failed: { case: string; error: unknown }[] = [];
  for (const one of cases) {
    if (skip.has(one.name)) {
      skipped.push(one.name);
      continue;
    }
    try {
      await one.run();
      passed.push(one.name);
    } catch (error) {
      if (error instanceof NotApplicable) skipped.push(one.name);
      else failed.push({ case: one.name, error });
    }
  }
  return { suite, ok: failed.length === 0, passed, skipped, failed };
}

/**
 * Throws an AggregateError naming every failed case (its `errors`: what each found);
 * returns the report when every case held. `await checkBatchStore(make).then(assertConforms)`.
 */
export function assertConforms(report: ConformanceReport): ConformanceReport {
  if (report.ok) return report;
  const lines = report.failed.map(({ case: name, error }) => `- ${name}: ${messageOf(error)}`);
  throw new AggregateError(
    report.failed.map(({ error }) => error),
    `${report.suite}: ${report.failed.length} of ${report.failed.length + report.passed.length} cases failed\n${lines.join('\n')}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
