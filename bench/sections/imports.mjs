/**
 * Start-up: each probe (bench/probes/import.mjs) in a fresh process, the modes rotated
 * each run, medians over runs. Two figures per mode: the time spent in the process on it
 * (performance.now() around it) and the process's wall time, spawn to exit, minus that of
 * the probe doing nothing. `node -e 0` is shown as the floor of a Node process.
 */
import { compareBuild, plan } from '../lib/config.mjs';
import { runPlain, scriptPath } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';

const MODES = ['none', 'sdk', 'sdk-call', 'fetch-call', 'http-call'];
if (compareBuild) MODES.push('compare-sdk', 'compare-sdk-call');

export async function measureImports(node, server) {
  const samples = Object.fromEntries(MODES.map((mode) => [mode, { ms: [], wall: [] }]));
  const bare = [];
  const failures = [];
  for (let run = 0; run < plan.importRuns; run++) {
    bare.push((await runPlain(node.execPath, ['-e', '0'])).wallMs);
    for (let i = 0; i < MODES.length; i++) {
      const mode = MODES[(run + i) % MODES.length];
      const probe = scriptPath('probes/import.mjs');
      const result = await runPlain(node.execPath, [probe, mode, server.url]);
      if (result.code !== 0) {
        failures.push(`${mode}: exit ${result.code} ${result.stderr.trim().slice(-500)}`);
        continue;
      }
      samples[mode].ms.push(JSON.parse(result.stdout).ms);
      samples[mode].wall.push(result.wallMs);
    }
  }
  const summary = { bareWall: median(bare), failures };
  const noneWall = median(samples.none.wall);
  for (const mode of MODES) {
    summary[mode] = {
      ms: median(samples[mode].ms),
      wall: median(samples[mode].wall),
      wallOverNone: median(samples[mode].wall) - noneWall,
    };
  }
  return summary;
}
