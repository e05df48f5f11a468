import { describe, expect, it, vi } from 'vitest';

// Every zod/mini function the SDK calls, counted. Importing the SDK must call none:
// schemas are built on their first use (src/schemas/lazy.ts), once.
const zod = vi.hoisted(() => ({ calls: 0 }));
vi.mock('zod/mini', async (importOriginal) => {
  const z = await importOriginal<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(z).map(([name, value]) => [
      name,
      typeof value === 'function' && /^[a-z]/.test(name)
        ? (...args: unknown[]) => {
            zod.calls++;
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  );
});

describe('schemas are built on first use', () => {
  it('importing the SDK builds none; the first validation builds its schema, once', async () => {
    const { MomoClient, parseCallback } = await import('momo-partner-sdk');
    new MomoClient({
      baseUrl: 'http://127.0.0.1:9',
      targetEnvironment: 'sandbox',
      subscriptionKey: 'k',
      apiUser: { id: '0b9e4d0c-5f5a-4c1e-9f55-0c6f2d1d3a11', key: 'secret-key' },
    });
    expect(zod.calls).toBe(0);

    expect(parseCallback({ status: 'SUCCESSFUL' }).status).toBe('SUCCESSFUL');
    const built = zod.calls;
    expect(built).toBeGreaterThan(0);
    expect(parseCallback({ status: 'failed' }).status).toBe('FAILED');
    expect(zod.calls).toBe(built);
  });
});
