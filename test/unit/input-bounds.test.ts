import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from 'momo-partner-sdk/testing';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rawDeposit, refused, type Sim } from '../support/refused';

/*
 * Hostile input: every value is bounded before any pattern reads it (so a pattern never
 * runs on 40 KB), invisible characters never reach a payer's SMS, and every pattern of
 * the SDK is linear on long hostile input.
 */

const HUGE = 40_000;
const transfer = (extra: Record<string, unknown>) => ({
  amount: '100',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46733123999' },
  ...extra,
});
const hostileEmail = `a@${'.'.repeat(HUGE)}`;

describe('every value is bounded before a pattern reads it', () => {
  const cases: [string, string, string, (sim: Sim) => Promise<unknown>][] = [
    [
      'a 40 KB e-mail party id',
      'payee.partyId',
      'at most 254 characters',
      (sim) =>
        sim
          .client()
          .disbursement.deposit(
            transfer({ payee: { partyIdType: 'EMAIL', partyId: hostileEmail } }),
          ),
    ],
    [
      'a 40 KB MSISDN party id',
      'payer.partyId',
      'at most 15 characters',
      (sim) =>
        sim.client().collection.requestToPay({
          amount: '100',
          currency: 'EUR',
          payer: { partyIdType: 'MSISDN', partyId: '4'.repeat(HUGE) },
        }),
    ],
    [
      'a 40 KB party code',
      'payee.partyId',
      'at most 36 characters',
      (sim) =>
        sim
          .client()
          .disbursement.transfer(
            transfer({ payee: { partyIdType: 'PARTY_CODE', partyId: 'a-'.repeat(HUGE / 2) } }),
          ),
    ],
    [
      'a 40 KB e-mail holder',
      'accountHolderId',
      'at most 256 characters',
      (sim) => sim.client().collection.isAccountHolderActive('email', hostileEmail),
    ],
    [
      'a 40 KB status identifier',
      'identifier',
      'at most 256 characters',
      (sim) => sim.client().collection.getAccountStatus('emailaddress', hostileEmail),
    ],
    [
      'a 400-digit amount',
      'amount',
      'at most 23 characters',
      (sim) => sim.client().disbursement.transfer(transfer({ amount: '9'.repeat(400) })),
    ],
    [
      'a 1 MB externalId',
      'externalId',
      'at most 256 characters',
      (sim) => sim.client().disbursement.transfer(transfer({ externalId: 'x'.repeat(1 << 20) })),
    ],
    [
      'a 40 KB payer identification number',
      'payerIdentificationNumber',
      'at most 256 characters',
      (sim) =>
        sim.client().remittance.cashTransfer({
          amount: '10',
          orginatingCountry: 'UG',
          originalAmount: '10',
          originalCurrency: 'EUR',
          payerIdentificationType: 'PASS',
          payerIdentificationNumber: '1'.repeat(HUGE),
        }),
    ],
  ];

  it.each(cases)('%s is refused by its length', async (_, field, words, call) => {
    const sim = createSimulator();
    const error = await refused(sim, () => call(sim));
    expect(error.field).toBe(field);
    expect(error.message).toContain(words);
    expect(error.issues).toHaveLength(1);
  });

  it('the simulator refuses the same by length (400)', async () => {
    const sim = createSimulator();
    const send = (body: unknown) => rawDeposit(sim, body);
    for (const [body, words] of [
      [transfer({ payee: { partyIdType: 'EMAIL', partyId: hostileEmail } }), 'at most 254'],
      [transfer({ amount: '9'.repeat(400) }), 'at most 23'],
      [transfer({ externalId: 'x'.repeat(1 << 20) }), 'at most 256'],
    ] as const) {
      const response = await send(body);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(words);
    }
  });
});

describe('invisible characters never reach the payer', () => {
  const invisible: [string, string][] = [
    ['a right-to-left override', 'Refund \u202Eboolcm'],
    ['a zero-width space', 'Pay\u200Bment'],
    ['a zero-width joiner', 'Pay\u200Dment'],
    ['a byte-order mark', '\uFEFFThanks'],
  ];

  it.each(invisible)('%s in payerMessage or payeeNote is refused', async (_, text) => {
    for (const field of ['payerMessage', 'payeeNote', 'externalId']) {
      const sim = createSimulator();
      const error = await refused(sim, () =>
        sim.client().disbursement.transfer(transfer({ [field]: text })),
      );
      expect(error.field).toBe(field);
      expect(error.message).toContain('invisible');
    }
  });

  it('other free text refuses them too, and accents and emoji are kept', async () => {
    const sim = createSimulator();
    const error = await refused(sim, () =>
      sim.client().collection.redeemVoucher('token-1', {
        receiver: { firstName: 'Ann\u202E', msisdn: '46733123999' },
      }),
    );
    expect(error.field).toBe('receiver.firstName');
    const accepted = await sim
      .client()
      .disbursement.transfer(transfer({ payerMessage: 'Merci, café ☕ 🎉' }));
    expect(accepted.referenceId).toEqual(expect.any(String));
  });

  it('the simulator refuses them (400)', async () => {
    const sim = createSimulator();
    const response = await rawDeposit(sim, transfer({ payeeNote: 'Pay\u200Bment' }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('payeeNote');
  });
});

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every regular-expression literal in src, found by the TypeScript parser. */
function sdkPatterns(): { where: string; pattern: RegExp }[] {
  const found: { where: string; pattern: RegExp }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) {
        const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
        const visit = (node: ts.Node) => {
          if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
            const text = node.getText(file);
            const end = text.lastIndexOf('/');
            const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
            found.push({
              where: `${relative(SRC, path)}:${line + 1}`,
              pattern: new RegExp(text.slice(1, end), text.slice(end + 1).replace('g', '')),
            });
          }
          ts.forEachChild(node, visit);
        };
        visit(file);
      }
    }
  };
  walk(SRC);
  return found;
}

/**
 * Long strings made of the pattern's own characters: a prefix that gets past its start,
 * one character repeated, then one that fails the match (what makes a backtracking
 * pattern with overlapping quantifiers try every split).
 */
function hostileInputs(pattern: RegExp, length: number): string[] {
  const source = pattern.source.replace(/\\[a-zA-Z]/g, '');
  const own = [...new Set(source.replace(/[\\^$*+?()[\]{}|a-zA-Z0-9]/g, ''))];
  const chars = [...new Set([...own, 'a', 'A', '0', ' ', '.', '-'])];
  const prefixes = ['', ...own.map((c) => `a${c}`), ...own.map((c) => `0${c}`)];
  const inputs: string[] = [];
  for (const prefix of prefixes) {
    for (const c of chars) {
      for (const end of ['\n', '!']) inputs.push(prefix + c.repeat(length) + end);
    }
  }
  return inputs;
}

describe('every pattern of the SDK is linear on hostile input', () => {
  const patterns = sdkPatterns();

  it('finds the patterns (the rules module among them)', () => {
    expect(patterns.length).toBeGreaterThan(30);
    expect(patterns.filter((p) => p.where.includes('schemas/rules.ts')).length).toBeGreaterThan(5);
  });

  // No clock is read. A linear pattern reads these inputs in well under a second; one that
  // backtracks quadratically (the e-mail rule before 0.1.0 took ~19 s on one 100 KB input
  // here) runs into the generous timeout.
  it.each(patterns.map((p) => [p.where, p.pattern] as const))(
    '%s %s reads 100 KB hostile inputs made of its own characters',
    (_, pattern) => {
      const inputs = hostileInputs(pattern, 100_000);
      for (const input of inputs) pattern.test(input);
      expect(inputs.length).toBeGreaterThan(10);
    },
    30_000,
  );
});
