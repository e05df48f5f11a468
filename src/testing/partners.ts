import { limitsProblem } from './limits';
import type { SimulatorLimits, SimulatorPartner } from './types';

/** The name of the partner the top-level options describe, once `partners` adds others. */
export const DEFAULT_PARTNER = 'default';

/** One partner of the simulator: its keys, its API users, its caps. */
export interface ResolvedPartner {
  readonly name: string;
  readonly subscriptionKeys: readonly string[];
  readonly apiUsers: readonly { readonly id: string; readonly key: string }[];
  readonly limits: SimulatorLimits;
}

/** The partners by subscription key; `several`: more than the top-level one (transactions then carry theirs). */
export interface PartnerDirectory {
  readonly several: boolean;
  readonly all: readonly ResolvedPartner[];
  byKey(subscriptionKey: string): ResolvedPartner | undefined;
  byName(name: string): ResolvedPartner | undefined;
}

function fail(message: string): never {
  throw new TypeError(`createSimulator: ${message}`);
}

function resolvePartner(partner: SimulatorPartner, index: number, limits: SimulatorLimits) {
  const at = `partners[${index}]`;
  if (typeof partner?.name !== 'string' || partner.name === '') fail(`${at}.name must be a name`);
  const keys =
    typeof partner.subscriptionKey === 'string'
      ? [partner.subscriptionKey]
      : partner.subscriptionKey;
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string' || !k)) {
    fail(`${at}.subscriptionKey must be a key or a non-empty list of keys`);
  }
  const users = partner.apiUsers;
  if (!Array.isArray(users) || users.length === 0) fail(`${at}.apiUsers must list its API users`);
  for (const user of users) {
    if (typeof user?.id !== 'string' || typeof user?.key !== 'string' || !user.id || !user.key) {
      fail(`${at}.apiUsers must each be { id, key }`);
    }
  }
  const problem = limitsProblem(partner.limits);
  if (problem) fail(`${at}.${problem.field} ${problem.message}`);
  return {
    name: partner.name,
    subscriptionKeys: [...keys],
    apiUsers: users.map((user) => ({ id: user.id, key: user.key })),
    limits: { ...(partner.limits ?? limits) },
  };
}

/**
 * The top-level partner (subscriptionKey, apiUser, limits) and the `partners` option's.
 * Names, subscription keys and API user ids are each the partners' own: a repeat is refused.
 */
export function resolvePartners(
  first: ResolvedPartner,
  partners: readonly SimulatorPartner[] | undefined,
): PartnerDirectory {
  if (partners !== undefined && !Array.isArray(partners)) fail('partners must be a list');
  const all = [first, ...(partners ?? []).map((p, i) => resolvePartner(p, i, first.limits))];
  const byKey = new Map<string, ResolvedPartner>();
  const byName = new Map<string, ResolvedPartner>();
  const users = new Set<string>();
  for (const partner of all) {
    if (byName.has(partner.name)) fail(`partner name ${partner.name} is used twice`);
    byName.set(partner.name, partner);
    for (const key of partner.subscriptionKeys) {
      if (byKey.has(key)) fail(`a subscription key of partner ${partner.name} is another's`);
      byKey.set(key, partner);
    }
    for (const user of partner.apiUsers) {
      const id = user.id.toLowerCase();
      if (users.has(id)) fail(`API user ${user.id} belongs to two partners`);
      users.add(id);
    }
  }
  return {
    several: all.length > 1,
    all,
    byKey: (key) => byKey.get(key),
    byName: (name) => byName.get(name),
  };
}
