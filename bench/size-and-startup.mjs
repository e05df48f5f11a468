/**
 * `node bench/size-and-startup.mjs`: builds the two entries twice, with ky, uuid and zod
 * bundled into the output and with them left external, and compares, for each build:
 * - import time of the main entry in a fresh process (ESM `import()` and CJS `require()`),
 *   the median of 15 runs, the two builds alternating so that machine noise hits both;
 * - the size of each dist file (raw and gzip);
 * - the main entry bundled with everything it needs (esbuild --bundle --minify
 *   --platform=node, then gzip), the figure partners pay in their own bundles;
 * - whether any zod locale made it into that bundle.
 * Results go to docs/size-and-startup.md by hand: this prints them, it asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { build as tsup } from 'tsup';

const root = resolve(import.meta.dirname, '..');
// Inside node_modules so that the external build resolves ky, uuid and zod like a consumer.
const work = join(root, 'node_modules', '.cache', 'size-and-startup');
const RUNS = Number(process.env.RUNS ?? 15);
const DEPENDENCIES = ['ky', 'uuid', 'zod'];

/** One marker per locale family: the German, Spanish and English default messages. */
const LOCALE_MARKERS = ['Ungültige Eingabe', 'Entrada inválida', 'Invalid input: expected'];

/** A package and its subpaths (zod/mini). */
const pattern = (name) => new RegExp(`^${name}(/|$)`);

async function buildVariant(name, bundled) {
  const outDir = join(work, name);
  rmSync(outDir, { recursive: true, force: true });
  await tsup({
    config: false,
    silent: true,
    entry: { index: join(root, 'src/index.ts'), testing: join(root, 'src/testing/index.ts') },
    format: ['esm', 'cjs'],
    outDir,
    target: 'node20',
    splitting: false,
    treeshake: true,
    dts: false,
    // tsup bundles devDependencies by default (where ky, uuid and zod now live): the
    // external variant names them, as a build with them in `dependencies` would leave them.
    external: ['momo-partner-sdk', 'msw', ...(bundled ? [] : DEPENDENCIES.map(pattern))],
    noExternal: bundled ? DEPENDENCIES : [],
  });
  return outDir;
}

function importMs(file, kind) {
  const code =
    kind === 'esm'
      ? `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`
      : `const t = performance.now(); require(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const args = kind === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  return Number(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim());
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function bundledEntry(outDir) {
  const result = await esbuild({
    entryPoints: [join(outDir, 'index.js')],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text;
  return {
    minGzip: gzipSync(text).length,
    locales: LOCALE_MARKERS.filter((marker) => text.includes(marker)),
  };
}

mkdirSync(work, { recursive: true });
const variants = {
  bundled: await buildVariant('bundled', true),
  external: await buildVariant('external', false),
};
const times = { bundled: { esm: [], cjs: [] }, external: { esm: [], cjs: [] } };
for (let run = 0; run < RUNS; run++) {
  for (const [name, dir] of Object.entries(variants)) {
    times[name].esm.push(importMs(join(dir, 'index.js'), 'esm'));
    times[name].cjs.push(importMs(join(dir, 'index.cjs'), 'cjs'));
  }
}

console.log(`node ${process.version}, ${RUNS} runs per figure, medians`);
for (const [name, dir] of Object.entries(variants)) {
  const files = ['index.js', 'index.cjs', 'testing.js', 'testing.cjs'].map((file) => {
    const bytes = readFileSync(join(dir, file));
    return `${file} ${(statSync(join(dir, file)).size / 1024).toFixed(1)} KiB (gzip ${(gzipSync(bytes).length / 1024).toFixed(1)})`;
  });
  const entry = await bundledEntry(dir);
  console.log(`\n${name}:`);
  console.log(
    `  import ESM ${median(times[name].esm).toFixed(1)} ms, require CJS ${median(times[name].cjs).toFixed(1)} ms`,
  );
  console.log(`  ${files.join(', ')}`);
  console.log(
    `  main entry with dependencies, esbuild min + gzip: ${(entry.minGzip / 1024).toFixed(1)} KiB`,
  );
  console.log(
    `  zod locale text in it: ${entry.locales.length ? entry.locales.join(', ') : 'none'}`,
  );
}
rmSync(work, { recursive: true, force: true });
