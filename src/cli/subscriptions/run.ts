import type { ClientHooks } from '../../contracts/hooks';
import type { SubscriptionPlan, SubscriptionStore } from '../../contracts/subscription-store';
import { isConnectionError, isTimeoutError } from '../../errors';
import { addDecimal } from '../../payments/decimal';
import type { Subscriptions } from '../../subscriptions/facade';
import type { RunDueReport, SubscriptionChargeEvent } from '../../subscriptions/types';
import { ExitCode } from '../output';
import type { Progress } from '../progress';

/** `subscriptions run`'s answer: the pass's report, and what it leaves open. */
export interface RunSummary {
  now: string;
  /** Subscriptions due at `now` when the pass began. */
  due: number;
  processed: number;
  /** Held by another runner: left to it. */
  skipped: number;
  counts: {
    successful: number;
    failed: number;
    /** Of the failed: a retry is scheduled (the subscription PAST_DUE). */
    retrying: number;
    invoiced: number;
    /** Charges still PENDING at the end of the pass (looked up again by the next). */
    pending: number;
  };
  /** Collected amounts per plan and currency (exact decimals). */
  collected: { plan: string; currency: string; charges: number; amount: string }[];
  charges: SubscriptionChargeEvent[];
  /** Charges still PENDING after the pass: key, period, reference id. */
  pending: { key: string; period: number; referenceId: string }[];
  errors: RunDueReport['errors'];
  /** Calls that ended with no answer from the provider (connection or timeout, after the client's retries). */
  unanswered: number;
}

/**
 * Counts the calls that got no answer in the end: an attempt's connection or timeout error
 * is counted until a retry of it starts. The subscriptions take such a call as "not known
 * now" (looked at again next pass), so the pass's report alone cannot tell it apart from
 * a payer who has not answered yet.
 */
export function unansweredCalls(): { hooks: ClientHooks; count: () => number } {
  const open = new Set<unknown>();
  return {
    hooks: {
      onResponse: (info) => {
        // A wait that ran out aborts its lookup: that is no answer missing, it is PENDING.
        if (isConnectionError(info.error) || isTimeoutError(info.error)) open.add(info.error);
      },
      onRetry: (info) => {
        open.delete(info.error);
      },
    },
    count: () => open.size,
  };
}

/** One `runDue` pass at `now`, its progress shown as charges end. */
export async function runOnce(
  subs: Subscriptions,
  store: SubscriptionStore,
  now: Date,
  progress: Progress,
  unanswered: () => number,
): Promise<RunSummary> {
  const dueKeys = await store.due(now.getTime(), Number.MAX_SAFE_INTEGER);
  const n = { ended: 0, successful: 0, failed: 0, invoiced: 0 };
  const line = () =>
    `subscriptions run: ${n.ended} charges ended (successful ${n.successful}, failed ${n.failed}, invoiced ${n.invoiced}); ${dueKeys.length} subscriptions due`;
  progress.update(line());
  const report = await subs.runDue({
    now,
    onCharge: (charge) => {
      n.ended += 1;
      if (charge.invoice?.status === 'PENDING') n.invoiced += 1;
      else if (charge.status === 'SUCCESSFUL' || charge.invoice?.status === 'SUCCESSFUL')
        n.successful += 1;
      else n.failed += 1;
      progress.update(line());
    },
  });
  progress.done(line());
  return { ...(await summarize(store, now, dueKeys, report)), unanswered: unanswered() };
}

async function summarize(
  store: SubscriptionStore,
  now: Date,
  dueKeys: string[],
  report: RunDueReport,
): Promise<Omit<RunSummary, 'unanswered'>> {
  const plans = new Map<string, SubscriptionPlan | undefined>();
  const planOf = new Map<string, string>();
  const pending: RunSummary['pending'] = [];
  for (const key of new Set([...dueKeys, ...report.charges.map((c) => c.key)])) {
    const sub = (await store.get(key))?.subscription;
    if (!sub) continue;
    planOf.set(key, sub.plan);
    if (!plans.has(sub.plan)) plans.set(sub.plan, await store.getPlan(sub.plan));
    const last = sub.charges.at(-1);
    if (last?.status === 'PENDING' && !last.invoice) {
      pending.push({ key, period: last.period, referenceId: last.referenceId });
    }
  }
  const collected = new Map<string, RunSummary['collected'][number]>();
  for (const charge of report.charges) {
    const paid = charge.status === 'SUCCESSFUL' || charge.invoice?.status === 'SUCCESSFUL';
    const plan = plans.get(planOf.get(charge.key) ?? '');
    if (!paid || !plan) continue;
    const id = `${plan.id}\u0000${plan.currency}`;
    const row = collected.get(id) ?? {
      plan: plan.id,
      currency: plan.currency,
      charges: 0,
      amount: '0',
    };
    row.charges += 1;
    row.amount = addDecimal(row.amount, plan.amount);
    collected.set(id, row);
  }
  const failed = report.charges.filter((c) => c.status === 'FAILED' && !c.invoice);
  return {
    now: now.toISOString(),
    due: dueKeys.length,
    processed: report.processed,
    skipped: report.skipped,
    counts: {
      successful: report.counts.successful,
      failed: report.counts.failed,
      retrying: failed.filter((c) => c.subscriptionStatus === 'PAST_DUE').length,
      invoiced: report.counts.invoiced,
      pending: pending.length,
    },
    collected: [...collected.values()],
    charges: report.charges,
    pending,
    errors: report.errors,
  };
}

/**
 * 0 when every due charge ended (SUCCESSFUL, FAILED with or without a retry scheduled,
 * or invoiced); 3 when a subscription's pass failed or a call got no answer from the
 * provider (the next run tries again); 5 when charges are only still PENDING (the next
 * run looks them up).
 */
export function runExitCode(summary: RunSummary): number {
  if (summary.errors.length > 0 || summary.unanswered > 0) return ExitCode.api;
  return summary.pending.length > 0 ? ExitCode.waitTimeout : ExitCode.ok;
}

/** The human summary of a run. */
export function runText(s: RunSummary, dir: string): string {
  const c = s.counts;
  const held = s.skipped > 0 ? `, ${s.skipped} held by another runner` : '';
  const lines = [
    `subscriptions run at ${s.now} (${dir}): ${s.due} due, ${s.processed} worked on${held}`,
    `  charges: ${c.successful} SUCCESSFUL, ${c.failed} FAILED (${c.retrying} to be retried), ${c.invoiced} invoiced, ${c.pending} PENDING`,
  ];
  for (const row of s.collected) {
    lines.push(`  ${row.plan}: ${row.amount} ${row.currency} collected (${row.charges} charges)`);
  }
  for (const p of s.pending.slice(0, 20)) {
    lines.push(`  PENDING ${p.key} period ${p.period} (${p.referenceId}): run again to look it up`);
  }
  if (s.unanswered > 0) {
    lines.push(
      `  ${s.unanswered} calls got no answer from the provider (connection or timeout): run again`,
    );
  }
  for (const e of s.errors.slice(0, 20)) lines.push(`  error ${e.key}: ${e.error}`);
  if (s.errors.length > 20) lines.push(`  ... and ${s.errors.length - 20} more errors`);
  return `${lines.join('\n')}\n`;
}
