import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A partner who bundles with minification (esbuild --minify, no keepNames) gets renamed
 * classes: error names and the `is*Error` guards must not depend on the class names.
 */
const dir = mkdtempSync(join(tmpdir(), 'momo-minified-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function minifiedSdk(): Promise<typeof import('momo-partner-sdk')> {
  const outfile = join(dir, 'sdk.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return import(/* @vite-ignore */ pathToFileURL(outfile).href);
}

describe('errors in a minified bundle', () => {
  it('keep their documented names, and the guards recognise them', async () => {
    const sdk = await minifiedSdk();
    const validation = new sdk.ValidationError([{ path: 'amount', message: 'is required' }]);
    expect(validation.name).toBe('ValidationError');
    expect(validation.constructor.name).toBe('ValidationError');
    expect(sdk.isValidationError(validation)).toBe(true);
    expect(sdk.isMomoError(validation)).toBe(true);
    expect(sdk.isApiError(validation)).toBe(false);

    const notFound = new sdk.NotFoundError({ status: 404, operation: 'disbursement.getDeposit' });
    expect(notFound.name).toBe('NotFoundError');
    expect(sdk.isNotFoundError(notFound)).toBe(true);
    expect(sdk.isApiError(notFound)).toBe(true);
    expect(notFound.toJSON()).toMatchObject({ name: 'NotFoundError', status: 404 });

    const timeout = new sdk.TimeoutError('no answer');
    expect(String(timeout)).toBe('TimeoutError: no answer');
    expect(sdk.isConnectionError(timeout)).toBe(true);
  });
});
