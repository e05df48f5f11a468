import { inspect } from 'node:util';
import { Sandbox, ValidationError } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { renderings } from '../support/renderings';

// Validation and secrets of the Sandbox class, against the simulator's fetch.
const SUBSCRIPTION_KEY = 'sandbox-subscription-key-0123';
const sim = createSimulator({ subscriptionKey: SUBSCRIPTION_KEY });
const sandbox = (extra: Partial<ConstructorParameters<typeof Sandbox>[0]> = {}) =>
  new Sandbox({ subscriptionKey: SUBSCRIPTION_KEY, fetch: sim.fetch, maxRetries: 0, ...extra });
const v1Uuid = 'a8098c1a-f86e-11da-bd1a-00112444be1e';

async function validationError(call: () => Promise<unknown>): Promise<ValidationError> {
  const before = sim.requests.length;
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(sim.requests.length, 'nothing was sent').toBe(before);
  return error as ValidationError;
}

describe('Sandbox: bad input is a ValidationError naming the field, nothing sent', () => {
  it.each([
    ['', 'is required'],
    ['https://partner.example', 'without a scheme'],
    ['partner.example/callbacks', 'without a path'],
    ['partner.example:8080', 'host name'],
    ['partner example', 'host name'],
    ['-partner.example', 'host name'],
  ])('providerCallbackHost %j', async (host, message) => {
    const error = await validationError(() => sandbox().createUser({ providerCallbackHost: host }));
    expect(error.field).toBe('providerCallbackHost');
    expect(error.message).toContain(message);
  });

  it('a missing providerCallbackHost, an unknown field', async () => {
    const missing = await validationError(() =>
      sandbox().provision({} as { providerCallbackHost: string }),
    );
    expect(missing.issues).toEqual([{ path: 'providerCallbackHost', message: 'is required' }]);
    const extra = await validationError(() =>
      sandbox().createUser({ providerCallbackHost: 'a.example', port: 1 } as never),
    );
    expect(extra.field).toBe('port');
  });

  it('ids and reference ids must be UUID v4', async () => {
    for (const id of ['abc', v1Uuid, '../apiuser']) {
      expect((await validationError(() => sandbox().createApiKey(id))).field).toBe('id');
      expect((await validationError(() => sandbox().getUser(id))).field).toBe('id');
    }
    const error = await validationError(() =>
      sandbox().provision({ providerCallbackHost: 'a.example' }, { referenceId: v1Uuid }),
    );
    expect(error.field).toBe('options.referenceId');
  });

  it('options: subscriptionKey required, https base URL unless loopback', () => {
    expect(() => new Sandbox({} as never)).toThrow(
      expect.objectContaining({ name: 'ValidationError', field: 'subscriptionKey' }),
    );
    expect(() => new Sandbox({ subscriptionKey: 'k', baseUrl: 'http://sandbox.example' })).toThrow(
      expect.objectContaining({ field: 'baseUrl' }),
    );
    expect(() => new Sandbox({ subscriptionKey: 'k', timeoutMs: -1 })).toThrow(
      expect.objectContaining({ field: 'timeoutMs' }),
    );
  });

  it('defaults to the provider’s sandbox', () => {
    expect(JSON.stringify(new Sandbox({ subscriptionKey: 'k' }))).toBe(
      '{"baseUrl":"https://sandbox.momodeveloper.mtn.com"}',
    );
  });
});

describe('Sandbox: secrets', () => {
  it('the key is readable, and spreads, but never prints', async () => {
    const apiUser = await sandbox().provision({ providerCallbackHost: 'partner.example' });
    expect(apiUser.key).toMatch(/^[0-9a-f]{32}$/);
    expect({ ...apiUser }).toEqual({ id: apiUser.id, key: apiUser.key });
    expect(Object.keys(apiUser)).toEqual(['id', 'key']);
    expect(JSON.parse(JSON.stringify(apiUser))).toEqual({ id: apiUser.id, key: '[redacted]' });
    expect(inspect(apiUser)).toBe(`{ id: '${apiUser.id}', key: [redacted] }`);
    const apiKey = await sandbox().createApiKey(apiUser.id);
    expect(renderings(apiKey)).not.toContain(apiKey.apiKey);
    expect(renderings(apiUser)).not.toContain(apiUser.key);
  });

  it('no subscription key or API key in errors, inspected objects or log lines', async () => {
    const lines: string[] = [];
    const log = (message: string, fields?: unknown) =>
      lines.push(`${message} ${JSON.stringify(fields)}`);
    const logger = { debug: log, info: log, warn: log, error: log };
    const client = sandbox({ logger, logLevel: 'debug', maxRetries: 1 });
    const { id, key } = await client.provision({ providerCallbackHost: 'partner.example' });
    // A proxy that echoes what it was sent, secrets included.
    const echo = `key ${SUBSCRIPTION_KEY} and ${key}`;
    sim.inject({
      match: 'GET /v1_0/apiuser',
      kind: 'status',
      status: 503,
      body: { message: echo },
    });
    sim.inject({ match: 'GET /v1_0/apiuser', kind: 'status', status: 500, body: echo });
    const error = await client.getUser(id).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ServerError', status: 500 });
    const text = [renderings(error), renderings(client), ...lines].join('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(text).not.toContain(SUBSCRIPTION_KEY);
    expect(text).not.toContain(key);
  });
});
