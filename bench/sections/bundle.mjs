/**
 * Bundle size: an entry bundled by esbuild with all its dependencies (--bundle --minify
 * --platform=node, ESM), gzipped (zlib level 9). The baseline is the bench's raw-fetch
 * client, the same calls written by hand. The metafile tells which packages ended up in
 * the bundle, and how many bytes each contributes.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { scriptPath } from '../lib/processes.mjs';

const HTTP_LIBRARIES = ['ky', 'undici', 'axios', 'node-fetch', 'got', 'superagent'];

async function bundle(entry, external = []) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const packages = {};
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(path);
    packages[name] = (packages[name] ?? 0) + bytesInOutput;
  }
  return {
    minBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    packages,
    httpLibraries: HTTP_LIBRARIES.filter((name) => packages[name] !== undefined),
  };
}

/** `.../node_modules/@scope/name/...` -> `@scope/name`; the package's own files -> `(own code)`. */
function packageOf(path) {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return '(own code)';
  const [first, second] = path.slice(at + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

export async function measureBundles() {
  return {
    baseline: await bundle(scriptPath('clients/raw-fetch.mjs')),
    main: await bundle(fileURLToPath(import.meta.resolve('momo-partner-sdk'))),
    // msw is an optional peer dependency: a partner's test set-up brings its own.
    testing: await bundle(fileURLToPath(import.meta.resolve('momo-partner-sdk/testing')), ['msw']),
  };
}
