import type { Io } from '../output';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the checklist. `fix`: the MOMO_* variable to change, when one is to blame. */
export interface CheckResult {
  readonly status: CheckStatus;
  readonly message: string;
  readonly fix?: string;
}

export interface Check extends CheckResult {
  /** `host`, `reach`, `tls`, `collection token`, `collection environment`, `callback`... */
  readonly name: string;
}

const MARK: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** The human checklist: one line per check, then a summary line. */
export function printChecklist(io: Io, heading: string, checks: readonly Check[]): void {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.map((c) => `  ${MARK[c.status]}  ${c.name.padEnd(width)}  ${c.message}`);
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const summary =
    failed > 0
      ? `${failed} check${failed === 1 ? '' : 's'} failed${warned ? `, ${warned} warning${warned === 1 ? '' : 's'}` : ''}.`
      : `All checks passed${warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}.`;
  io.out(`${heading}\n\n${lines.join('\n')}\n\n${summary}\n`);
}
