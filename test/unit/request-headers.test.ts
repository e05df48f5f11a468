import { isValidationError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { transferBody } from '../support/fake-service';
import { startLoopbackService } from '../support/loopback-service';

// Real sockets through the Node fast path: the caller's headers reach the wire as given,
// and a header no HTTP stack may send is refused before anything leaves.
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("the caller's extra headers", () => {
  it('reach the service next to the ones the SDK owns', async () => {
    service = await startLoopbackService();
    const momo = new MomoClient(service.options);
    const accepted = await momo.disbursement.deposit(transferBody, {
      headers: { 'X-Trace-Id': 'trace-1', 'X-Reference-Id': 'ignored' },
    });
    const deposit = service.seen.find((s) => s.path.endsWith('/deposit'));
    expect(deposit?.headers['x-trace-id']).toBe('trace-1');
    expect(deposit?.headers['x-reference-id']).toBe(accepted.referenceId);
    expect(deposit?.headers['content-type']).toBe('application/json');
    expect(deposit?.headers.authorization).toMatch(/^Bearer /);
  });

  it('are refused with a ValidationError naming the header when they could split a request', async () => {
    service = await startLoopbackService();
    const momo = new MomoClient(service.options);
    const error = await momo.disbursement
      .deposit(transferBody, { headers: { 'X-Note': 'a\r\nX-Injected: 1' } })
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect((error as { field: string }).field).toBe('options.headers.X-Note');
    const badName = await momo.disbursement
      .deposit(transferBody, { headers: { 'Bad Name': 'x' } })
      .catch((e: unknown) => e);
    expect(isValidationError(badName)).toBe(true);
    expect(service.seen).toHaveLength(0);
  });
});

describe('the base URL', () => {
  it('is used in its normal form: scheme and host in any case, trailing slashes', async () => {
    service = await startLoopbackService();
    const port = new URL(service.options.baseUrl).port;
    const momo = new MomoClient({ ...service.options, baseUrl: `HTTP://LocalHost:${port}//` });
    const accepted = await momo.disbursement.deposit(transferBody);
    const deposit = service.seen.find((s) => s.path.endsWith('/deposit'));
    expect(deposit?.path).toBe('/disbursement/v1_0/deposit');
    expect(deposit?.headers.host).toBe(`localhost:${port}`);
    expect(deposit?.headers['x-reference-id']).toBe(accepted.referenceId);
  });
});

describe('the headers of the provider production platform', () => {
  it('token requests carry X-Target-Environment; every request names the SDK and its runtime', async () => {
    service = await startLoopbackService();
    const momo = new MomoClient({ ...service.options, targetEnvironment: 'mtnuganda' });
    await momo.disbursement.deposit(transferBody);
    const token = service.seen.find((s) => s.path === '/disbursement/token/');
    const deposit = service.seen.find((s) => s.path.endsWith('/deposit'));
    expect(token?.headers['x-target-environment']).toBe('mtnuganda');
    const userAgent = new RegExp(
      `^momo-partner-sdk/${pkg.version.replaceAll('.', '\\.')} node/${process.versions.node}$`,
    );
    expect(token?.headers['user-agent']).toMatch(userAgent);
    expect(deposit?.headers['user-agent']).toMatch(userAgent);
  });

  it("keeps a caller's own User-Agent instead of the SDK's", async () => {
    service = await startLoopbackService();
    const momo = new MomoClient(service.options);
    await momo.disbursement.deposit(transferBody, { headers: { 'user-agent': 'shop/2.0' } });
    const deposit = service.seen.find((s) => s.path.endsWith('/deposit'));
    expect(deposit?.headers['user-agent']).toBe('shop/2.0');
  });
});
