import type { PlanInterval } from '../contracts/subscription-store';

/**
 * Period arithmetic, in UTC. Period n of a plan starts at `startAt` plus n intervals: n
 * days, n weeks, n × `days` days, or n calendar months, the day of the month kept and
 * clamped to the month's last day (started on 31 January: 28 or 29 February, 31 March).
 * Each period is counted from `startAt`, never from the previous one, so a clamp does not
 * drift (31 March follows 28 February).
 */

const DAY_MS = 86_400_000;

/** Epoch ms period `n` starts. */
export function periodStart(startAt: number, every: PlanInterval, n: number): number {
  if (every === 'day') return startAt + n * DAY_MS;
  if (every === 'week') return startAt + n * 7 * DAY_MS;
  if (typeof every === 'object') return startAt + n * every.days * DAY_MS;
  const start = new Date(startAt);
  const month = start.getUTCMonth() + n;
  const year = start.getUTCFullYear() + Math.floor(month / 12);
  const monthOfYear = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, monthOfYear + 1, 0)).getUTCDate();
  const day = Math.min(start.getUTCDate(), lastDay);
  const timeOfDay =
    startAt - Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  return Date.UTC(year, monthOfYear, day) + timeOfDay;
}

const UNITS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: DAY_MS,
  w: 7 * DAY_MS,
};

/** Milliseconds of a delay such as `'1d'`, `'12h'`, `'30m'`, `'2w'`; undefined if malformed. */
export function delayMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([1-9]\d{0,4})([mhdw])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

/** Milliseconds of one day. */
export const DAY = DAY_MS;

/** The first period starting at or after `at` (periods counted from `startAt`). */
export function firstPeriodFrom(startAt: number, every: PlanInterval, at: number): number {
  if (at <= startAt) return 0;
  // An estimate from the shortest month, then stepped: month lengths vary.
  let n = Math.max(
    0,
    Math.floor((at - startAt) / (every === 'month' ? 31 * DAY_MS : stepMs(every))) - 1,
  );
  while (periodStart(startAt, every, n) < at) n += 1;
  return n;
}

function stepMs(every: Exclude<PlanInterval, 'month'>): number {
  if (every === 'day') return DAY_MS;
  if (every === 'week') return 7 * DAY_MS;
  return every.days * DAY_MS;
}
