/**
 * Waits at scale on one Node version: n deposits issued at once and awaited (waits.mjs)
 * for each size of the plan, what an idle pending wait retains (idle.mjs), and whether a
 * pending wait keeps a process alive (probes/keep-alive.mjs). A failed child is reported
 * with its error, and the section goes on.
 */
import { plan } from '../lib/config.mjs';
import { runMeasured, runPlain, scriptPath } from '../lib/processes.mjs';

const KEEP_ALIVE_SETTLE_MS = 2_000;

async function attempt(run) {
  try {
    return await run();
  } catch (error) {
    return { error: error.message };
  }
}

export async function measureWaits(node, server, { big = false } = {}) {
  const measured = (script, args) =>
    attempt(() =>
      runMeasured(script, args, {
        execPath: node.execPath,
        execArgv: ['--expose-gc'],
        server,
        timeoutMs: 300_000,
      }),
    );
  const sizes = big ? [...plan.waits, ...plan.bigWaits] : plan.waits;
  const runs = [];
  for (const n of sizes) {
    runs.push({ n, ...(await measured('waits.mjs', [server.url, n, plan.settleMs])) });
  }
  const idle = await measured('idle.mjs', [server.url, plan.idleWaits]);

  await server.reset(KEEP_ALIVE_SETTLE_MS);
  const child = await runPlain(node.execPath, [scriptPath('probes/keep-alive.mjs'), server.url], {
    timeoutMs: 30_000,
  });
  const printed = /"status":"(\w+)"/.exec(child.stdout)?.[1];
  const keepAlive = {
    code: child.code,
    timedOut: child.timedOut,
    printed,
    wallMs: child.wallMs,
    ok: child.code === 0 && printed === 'SUCCESSFUL',
    stderr: child.stderr.trim().slice(-500),
  };
  return { runs, idle, keepAlive };
}

/** The in-memory scheduler comparison (scheduler.mjs), run once. */
export function measureScheduler(node) {
  return attempt(() =>
    runMeasured('scheduler.mjs', [plan.schedulerWaits], {
      execPath: node.execPath,
      execArgv: ['--expose-gc'],
      timeoutMs: 300_000,
    }),
  );
}
