import { Subscriptions } from '../../subscriptions/facade';
import { buildReport } from '../../subscriptions/report';
import { positiveInteger } from '../args';
import { defineCommand } from '../command';
import { CONNECTION_HELP, clientFromEnv } from '../env';
import { UsageError } from '../output';
import { guardNow } from '../payouts/repeat';
import { progressOn } from '../progress';
import { simulatorTagsFromEnv } from '../simulator-tags';
import { dueBy, dueText } from '../subscriptions/due';
import { reportCsv } from '../subscriptions/report';
import { runExitCode, runOnce, runText, unansweredCalls } from '../subscriptions/run';
import { isoTime, openSubscriptionState, subscriptionSecret } from '../subscriptions/state';

const STATE_HELP = `  --store <where>           the subscription store: file:<dir> (your code's
                            fileSubscriptionStore('<dir>/subscriptions')),
                            redis://host:6379 (createRedisState's; ?prefix= the key
                            prefix, default "momo:"), or postgres://user@host/db
                            (createPostgresState's; ?schema=, default "momo")
  --state-dir <dir>         as --store file:<dir> (default .momo)`;

const NOW_HELP = `MOMO_NOW (ISO 8601) sets "now" instead of the system clock (a rehearsal, a test).`;

const DUE_USAGE = `Usage: momo-partner-sdk subscriptions due [--until <ISO 8601>] [options]

Lists what is due by a time (default now), per plan and currency: the subscriptions due,
their next charges (and how many are retries), the amount those charges come to (exact
decimals), and those still waiting for the payer to approve the mandate. Reads the
store's due index only; nothing is sent.

  --until <time>            due by this ISO 8601 time (default now), e.g. 2026-12-01T09:00:00Z
${STATE_HELP}
  --json                    one JSON object: until, subscriptions, groups, totals
  -h, --help                show this help

${NOW_HELP}
Each subscription counts its next charge only, not the periods after it.

Exit codes: 0 listed (nothing due included); 2 bad usage or no subscriptions folder.
`;

const RUN_USAGE = `Usage: momo-partner-sdk subscriptions run [options]

One pass, for cron: every subscription due now is brought up to date (its mandate
looked at, its charge or retry made under a reference id derived from the key, the
period and the attempt, its invoice followed), each once, and a summary printed. Running
it again (after a crash, a timeout) charges nobody twice. Progress on stderr. The file
store is for one process at a time: not while your service works on the same folder.

${STATE_HELP}
  --timeout-ms <n>          how long each charge's outcome is awaited (default 30000);
                            a charge still pending then is looked up by the next run
  -h, --help                show this help

With --json: one JSON object, the summary with every charge that ended, the pending
ones and the errors. Reference ids are derived with MOMO_SUBSCRIPTION_SECRET (at least 16 characters): set
it to the secret your code gives new Subscriptions(momo, { secret }). Without it, the
batches' secret (MOMO_BATCH_SECRET, else a key derived from the API key) is used.
The collection product's credentials are used (MOMO_COLLECTION_* or MOMO_*).
Against a plain-http loopback base URL (the simulator), each call carries the
subscription's key and period for the simulator's page (MOMO_SIMULATOR_TAGS=1 or 0).
${NOW_HELP}

Exit codes: 0 every due charge ended (SUCCESSFUL, FAILED with or without a retry
scheduled, or invoiced); 2 bad usage or no subscriptions folder; 3 an API or connection
error stopped a subscription's pass, or a call got no answer from the provider (the next
run tries again); 5 charges still PENDING at --timeout-ms (the next run looks them up).

${CONNECTION_HELP}`;

export const subscriptionsDueCommand = defineCommand({
  name: 'subscriptions due',
  summary: 'what subscriptions are due by a time, per plan and currency',
  usage: DUE_USAGE,
  flags: {
    until: { type: 'string' },
    'state-dir': { type: 'string' },
    store: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(command) {
    const { args, io } = command;
    const untilText = args.text('until');
    const until = untilText === undefined ? guardNow(io.env) : isoTime(untilText, '--until');
    const { dir, store, close } = await openSubscriptionState(args);
    try {
      const report = await dueBy(store, until);
      command.print(report, dueText(report, dir));
    } finally {
      await close();
    }
    return 0;
  },
});

export const subscriptionsRunCommand = defineCommand({
  name: 'subscriptions run',
  summary: 'one pass over the subscriptions due now (for cron)',
  usage: RUN_USAGE,
  connection: true,
  flags: {
    'state-dir': { type: 'string' },
    store: { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
  async run(command) {
    const { args, io } = command;
    const waitMs = positiveInteger(args.text('timeout-ms'), '--timeout-ms');
    const now = guardNow(io.env);
    const secret = subscriptionSecret(io.env);
    const { dir, store, close } = await openSubscriptionState(args);
    const unanswered = unansweredCalls();
    const momo = clientFromEnv(io, args, 'collection', {
      ...simulatorTagsFromEnv(io, args),
      hooks: unanswered.hooks,
    });
    const subs = new Subscriptions(momo, { store, secret, now: () => now.getTime(), waitMs });
    command.progress(`subscriptions run at ${now.toISOString()} (${dir})`);
    const progress = progressOn(io, command.json);
    let summary: Awaited<ReturnType<typeof runOnce>>;
    try {
      summary = await runOnce(subs, store, now, progress, unanswered.count);
    } catch (error) {
      throw command.explain(error, 'collection');
    } finally {
      await close();
    }
    command.print(summary, runText(summary, dir));
    return runExitCode(summary);
  },
});

const REPORT_USAGE = `Usage: momo-partner-sdk subscriptions report --from <ISO 8601> --to <ISO 8601> [options]

Finance's report over [from, to): one row per subscription and period starting in the
range: who paid (the charge or invoice that paid it, and when), the periods in arrears
(PAST_DUE rows, and each subscription's arrears: amount and since when), invoices
outstanding (INVOICED), periods skipped by a pause, and the mandates to renew (expiring
by --to + 7 days). Reads the store only; nothing is sent.

  --from <time>             the first period start included (ISO 8601)
  --to <time>               periods starting before this time (ISO 8601)
${STATE_HELP}
  --json                    one JSON object: from, to, periods, arrears, invoices, renewals
  -h, --help                show this help

CSV columns: key, plan, period, starts_at, amount, currency, status (PAID, ARREARS,
INVOICED, PENDING, SKIPPED, DUE), reference_id, paid_at, arrears_amount, arrears_since,
mandate_expires_at. Reads every subscription of the store.

Exit codes: 0 written; 2 bad usage or no subscriptions folder; 3 the store unreachable.
`;

export const subscriptionsReportCommand = defineCommand({
  name: 'subscriptions report',
  summary: "finance's report: per period who paid, arrears, invoices, renewals (CSV or JSON)",
  usage: REPORT_USAGE,
  flags: {
    from: { type: 'string' },
    to: { type: 'string' },
    'state-dir': { type: 'string' },
    store: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(command) {
    const { args } = command;
    const fromText = args.text('from');
    const toText = args.text('to');
    if (fromText === undefined || toText === undefined) {
      throw new UsageError('subscriptions report needs --from and --to (ISO 8601 times)');
    }
    const from = isoTime(fromText, '--from').getTime();
    const to = isoTime(toText, '--to').getTime();
    if (to <= from) throw new UsageError('--to must be after --from');
    const { store, close } = await openSubscriptionState(args);
    try {
      const report = await buildReport(store, from, to);
      command.print(report, reportCsv(report).trimEnd());
    } finally {
      await close();
    }
    return 0;
  },
});
