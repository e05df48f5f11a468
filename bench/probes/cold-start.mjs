/**
 * Plain child (argv: a bundle file): a serverless function's cold start. Prints, as JSON,
 * the milliseconds from before `import(bundle)` to a constructed `MomoClient` (no request:
 * the figure is the bundle's load and the client's set-up).
 */
import { pathToFileURL } from 'node:url';
import { credentials } from '../lib/config.mjs';

// Resolved before the clock starts, as the package name in bench/probes/import.mjs.
const bundle = pathToFileURL(process.argv[2]).href;
const started = performance.now();
const { MomoClient } = await import(bundle);
new MomoClient({ baseUrl: 'http://127.0.0.1:9', ...credentials });
console.log(JSON.stringify({ ms: performance.now() - started }));
