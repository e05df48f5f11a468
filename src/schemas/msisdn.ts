import { ValidationError } from '../errors';
import { isMsisdn } from './rules';

/** What `normalizeMsisdn` needs to read a number written the local way. */
export interface NormalizeMsisdnOptions {
  /** The country calling code of local numbers (`0772 123456`), digits only: `'256'`. */
  countryCode: string;
  /** The name the ValidationError gives the input (default `msisdn`), e.g. `payee.partyId`. */
  field?: string | undefined;
}

/** Longer than any phone number however it is spaced: refused before it is read. */
const INPUT_MAX = 64;
/** Spaces, dashes, dots and parentheses: how spreadsheets and forms group the digits. */
const SEPARATORS = /[\s\-.()]/g;
const COUNTRY_CODE = /^[1-9]\d{0,2}$/;
const DIGITS = /^\d+$/;

/**
 * A phone number as partners' spreadsheets hold it (`0772 123 456`, `+256 (772) 123-456`,
 * `00256772123456`, `772123456`), in the SDK's canonical MSISDN form: digits only, country
 * code first (`256772123456`). Opt-in: the SDK itself never rewrites a number it is given.
 *
 * - `+` or `00` starts an international number: the digits after it are kept as they are.
 * - One leading `0` is the national trunk prefix: it is replaced by `countryCode`.
 * - Digits that already begin with `countryCode` are kept; other digits get it in front.
 *
 * Anything else (letters, a second `+`, too few or too many digits) throws a
 * ValidationError naming `options.field` (default `msisdn`); the value is never echoed.
 */
export function normalizeMsisdn(input: string, options: NormalizeMsisdnOptions): string {
  const field = options.field ?? 'msisdn';
  const { countryCode } = options;
  if (typeof countryCode !== 'string' || !COUNTRY_CODE.test(countryCode)) {
    throw invalid(
      'options.countryCode',
      'must be a country calling code of 1 to 3 digits, e.g. "256"',
    );
  }
  if (typeof input !== 'string') throw invalid(field, 'must be a string');
  if (input.length > INPUT_MAX) throw invalid(field, `must be at most ${INPUT_MAX} characters`);
  const compact = input.replace(SEPARATORS, '');
  const international = compact.startsWith('+')
    ? compact.slice(1)
    : compact.startsWith('00')
      ? compact.slice(2)
      : undefined;
  const digits = international ?? compact;
  if (!DIGITS.test(digits)) {
    throw invalid(
      field,
      'must be a phone number: digits, with an optional leading + and spaces, dashes, dots or parentheses',
    );
  }
  const msisdn =
    international !== undefined
      ? digits
      : digits.startsWith('0')
        ? countryCode + digits.slice(1)
        : digits.startsWith(countryCode)
          ? digits
          : countryCode + digits;
  if (!isMsisdn(msisdn)) {
    throw invalid(field, 'must give 5 to 15 digits with the country code (e.g. 256772123456)');
  }
  return msisdn;
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], { operation: 'normalizeMsisdn' });
}
