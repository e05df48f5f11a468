import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// The docs are checked against the code's own constants, not against a copy of them.
import { DEFAULT_REFRESH_WINDOW_MS } from '../../src/auth/token-cache';

// Where two places describe one behaviour, they say the same thing, and what the code does.
const root = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
// README.md and the pages that took over its reference sections (docs/configuration.md, docs/reliability.md).
const readme = ['README.md', 'docs/configuration.md', 'docs/reliability.md'].map(read).join('\n');
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const assumptions = read('docs/assumptions.md');

describe('token refresh', () => {
  it('is documented with the default the code uses', () => {
    expect(readme).toMatch(/tokenRefreshWindowMs: (\d+)_?(\d*),/);
    const [, head, tail] = readme.match(/tokenRefreshWindowMs: (\d+)_?(\d*),/) ?? [];
    expect(Number(`${head}${tail}`)).toBe(DEFAULT_REFRESH_WINDOW_MS);
    const minutes = DEFAULT_REFRESH_WINDOW_MS / 60_000;
    // Configuration, Transport and Retries and idempotency each state it.
    expect(readme.match(/tokenRefreshWindowMs` \(default (\d+) minutes/g)).toHaveLength(1);
    expect(readme).toContain(`tokenRefreshWindowMs\` (default ${minutes} minutes`);
    expect(readme).toContain(
      `\`tokenRefreshWindowMs\` before \`expires_in\` runs out (default ${minutes} minutes`,
    );
  });

  it('is never described by the old rule (a tenth of the lifetime, at most a minute)', () => {
    for (const file of ['README.md', ...docs]) {
      expect(read(file), file).not.toMatch(/tenth of (the|their|its) lifetime/i);
    }
  });
});

describe('momo.health()', () => {
  const union = /export type ComponentState = ([^;]+);/.exec(read('src/contracts/health.ts'))?.[1];
  const known = new Set([
    ...[...(union ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]),
    'journal',
    'tokenStore',
    'callbackBus',
    'rateBudget',
  ]);

  it('is described with its real states and component names', () => {
    expect(known.has('failing')).toBe(true);
    const redis = readdirSync(join(root, 'src/redis')).map((f) => `src/redis/${f}`);
    const named: string[] = [];
    for (const file of ['README.md', ...docs, ...redis.filter((f) => f.endsWith('.ts'))]) {
      for (const match of read(file).matchAll(/health\(\)/g)) {
        const rest = read(file).slice(match.index + match[0].length);
        const sentence = rest.slice(0, rest.search(/\.\s|\n\s*\n|$/));
        for (const [, word] of sentence.matchAll(/`([a-z][\w -]*)`/g)) {
          if (!known.has(word as string)) named.push(`${file}: \`${word}\``);
        }
      }
    }
    expect(named).toEqual([]);
  });
});

describe('docs/assumptions.md', () => {
  const ids = [...assumptions.matchAll(/^\| ([A-Z]+\d+) +\|/gm)].map((m) => m[1]);

  it('gives every row its own id', () => {
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('holds the current choices only: a changed row is rewritten, not followed by its successor', () => {
    // "(T5 changed: ...)" or "These rows supersede M1" left the old row standing beside it.
    const notes = [
      ...assumptions.matchAll(/\b[A-Z]+\d+ changed\b|\bsupersede[sd]?\b[^.|]*\b[A-Z]+\d+\b/g),
    ];
    expect(notes.map((m) => m[0])).toEqual([]);
  });

  it('cites only rows that exist', () => {
    const cited = [...assumptions.matchAll(/\(([A-Z]+\d+)(?:, ([A-Z]+\d+))?\)/g)].flatMap((m) =>
      m.slice(1).filter(Boolean),
    );
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((id) => !ids.includes(id as string))).toEqual([]);
  });
});

describe('FailureReason', () => {
  it('is documented row for row in docs/errors.md', async () => {
    const { FailureReason } = await import('momo-partner-sdk');
    const rows = [
      ...read('docs/errors.md').matchAll(/^\| `([A-Z_]+)` \| (yes|no) \| (yes|no) \|$/gm),
    ];
    expect(
      Object.fromEntries(rows.map(([, code, retry, payer]) => [code, [retry, payer]])),
    ).toEqual(
      Object.fromEntries(
        Object.entries(FailureReason).map(([code, info]) => [
          code,
          [info.retryable ? 'yes' : 'no', info.payerActionable ? 'yes' : 'no'],
        ]),
      ),
    );
  });

  it("names every reason code of the specification's 7.1, and no other", async () => {
    const { FailureReason } = await import('momo-partner-sdk');
    // Specification 7.1, variant A (the same set is a failed transaction's reason.code).
    const spec = `PAYEE_NOT_FOUND PAYER_NOT_FOUND NOT_ALLOWED NOT_ALLOWED_TARGET_ENVIRONMENT
      INVALID_CALLBACK_URL_HOST INVALID_CURRENCY SERVICE_UNAVAILABLE INTERNAL_PROCESSING_ERROR
      NOT_ENOUGH_FUNDS PAYER_LIMIT_REACHED PAYEE_NOT_ALLOWED_TO_RECEIVE PAYMENT_NOT_APPROVED
      RESOURCE_NOT_FOUND APPROVAL_REJECTED EXPIRED TRANSACTION_CANCELED RESOURCE_ALREADY_EXIST`;
    expect(Object.keys(FailureReason).sort()).toEqual(spec.split(/\s+/).sort());
  });
});
