import { isDecimal } from '../../testing/decimal';
import type { SimulatorOptions } from '../../testing/types';
import type { ParsedCommand } from '../args';
import { UsageError } from '../output';

/** The simulator's flags for the provider's caps, its currency, environment and balances. */
export const SIMULATOR_MODEL_FLAGS = {
  'lookups-per-second': { type: 'string' },
  'creates-per-second': { type: 'string' },
  currency: { type: 'string' },
  'target-environment': { type: 'string' },
  'initial-balance': { type: 'string' },
} as const;

export const SIMULATOR_MODEL_USAGE = `  --lookups-per-second <n>
                    the provider's cap on lookups (every GET): beyond n in any sliding
                    second, 429 with Retry-After (default: no cap)
  --creates-per-second <n>
                    the same cap on creating calls (requests with X-Reference-Id)
  --currency <code> the only currency accepted, three capitals (default EUR)
  --target-environment <name>
                    the X-Target-Environment expected (default sandbox)
  --initial-balance <amount>
                    opening balance of each product's account (default 1000000.00)
`;

/** The createSimulator options these flags give (a bad value is a UsageError: exit 2). */
export function simulatorModelOptions(args: ParsedCommand): SimulatorOptions {
  const lookups = perSecond(args, 'lookups-per-second');
  const creates = perSecond(args, 'creates-per-second');
  const currency = args.text('currency');
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
    throw new UsageError(`--currency must be three capital letters (ISO 4217), e.g. EUR`);
  }
  const targetEnvironment = args.text('target-environment');
  if (targetEnvironment !== undefined && !/^\S+$/.test(targetEnvironment)) {
    throw new UsageError('--target-environment must be a name without spaces, e.g. sandbox');
  }
  const initialBalance = args.text('initial-balance');
  if (initialBalance !== undefined && !isDecimal(initialBalance)) {
    throw new UsageError('--initial-balance must be a decimal amount such as 5000 or 5000.00');
  }
  return {
    ...(lookups !== undefined || creates !== undefined
      ? {
          limits: {
            ...(lookups !== undefined ? { lookupsPerSecond: lookups } : {}),
            ...(creates !== undefined ? { createsPerSecond: creates } : {}),
          },
        }
      : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(targetEnvironment !== undefined ? { targetEnvironment } : {}),
    ...(initialBalance !== undefined ? { initialBalance } : {}),
  };
}

function perSecond(args: ParsedCommand, name: string): number | undefined {
  const value = args.text(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--${name} must be a positive integer (requests per second)`);
  }
  return n;
}

/** The banner's line for the caps. */
export function limitsLine(options: SimulatorOptions): string {
  const { lookupsPerSecond, createsPerSecond } = options.limits ?? {};
  const cap = (n: number | undefined, what: string) =>
    `${n === undefined ? 'no cap' : `${n}/s`} ${what}`;
  return `${cap(lookupsPerSecond, 'lookups')}, ${cap(createsPerSecond, 'creating calls')}`;
}
