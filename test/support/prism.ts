import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A Stoplight Prism validating mock of one OpenAPI document, on loopback. */
export interface PrismMock {
  readonly url: string;
  /** A fetch that records the mock's verdict on every request it carries. */
  readonly fetch: typeof fetch;
  /** Verdicts so far: answer status and the violations found in the request. */
  readonly verdicts: Verdict[];
  close(): Promise<void>;
}

export interface Verdict {
  method: string;
  path: string;
  status: number;
  /** `sl-violations` entries whose location starts with `request` (oracle/README.md). */
  requestViolations: string[];
}

const require = createRequire(import.meta.url);

export async function startPrism(document: string, timeoutMs = 30_000): Promise<PrismMock> {
  const packageJson = require.resolve('@stoplight/prism-cli/package.json');
  const bin = join(dirname(packageJson), 'dist', 'index.js');
  const child = spawn(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', '0', document], {
    // Prism's usage analytics off: tests reach nothing but loopback.
    env: { ...process.env, DO_NOT_TRACK: '1', SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await listening(child, timeoutMs);
  const verdicts: Verdict[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as Array<{
      location?: string[];
      message?: string;
    }>;
    verdicts.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      requestViolations: violations
        .filter((v) => v.location?.[0] === 'request')
        .map((v) => `${v.location?.join('.')}: ${v.message}`),
    });
    return response;
  };
  return {
    url,
    fetch: recording,
    verdicts,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function listening(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}) before listening:\n${output}`));
    });
  });
}
