/**
 * Throughput: every client, each round in a fresh child process, rounds alternating the
 * order of the clients (so that drift on a shared machine hits them alike). A ratio is the
 * median over rounds of the same round's ratio, so that it compares runs that were close
 * in time.
 */
import { clientKinds } from '../clients/index.mjs';
import { plan } from '../lib/config.mjs';
import { runMeasured } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';

export const workloads = {
  sequential: 'sequential lookups',
  lookups: `${plan.concurrency}-way lookups`,
  creates: `${plan.concurrency}-way creating calls`,
};

export async function measureThroughput(node, server) {
  const rounds = [];
  const errors = {};
  const childPlan = JSON.stringify({
    sequentialOps: plan.sequentialOps,
    parallelOps: plan.parallelOps,
    warmupOps: plan.warmupOps,
    concurrency: plan.concurrency,
  });
  for (let r = 0; r < plan.rounds; r++) {
    const order = r % 2 === 0 ? clientKinds : [...clientKinds].reverse();
    const round = {};
    for (const kind of order) {
      if (errors[kind]) continue; // a client that crashed once is not retried
      await server.reset(plan.settleMs);
      try {
        round[kind] = await runMeasured('throughput.mjs', [kind, server.url, childPlan], {
          execPath: node.execPath,
          server,
          timeoutMs: 180_000,
        });
      } catch (error) {
        errors[kind] = error.message;
      }
    }
    rounds.push(round);
  }
  return summarise(rounds, errors);
}

/** Per client and workload: median ops/s, and median same-round ratios to both baselines. */
function summarise(rounds, errors) {
  const rows = {};
  for (const kind of clientKinds) {
    rows[kind] = { error: errors[kind] };
    for (const workload of Object.keys(workloads)) {
      const ops = rounds.map((round) => round[kind]?.[workload]);
      const ratioTo = (base) =>
        median(rounds.map((round) => round[kind]?.[workload] / round[base]?.[workload]));
      rows[kind][workload] = {
        ops: median(ops),
        vsFetch: ratioTo('raw-fetch'),
        vsHttp: ratioTo('raw-http'),
      };
    }
  }
  return { rows, rounds: rounds.length };
}
