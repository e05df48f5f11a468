import type { PageSnapshot } from './snapshot';

/**
 * The page's lists and the field naming each entry: what a change is computed by. Sent to
 * the page's script too (script.ts), so both sides key entries alike.
 */
export const LIST_KEYS = {
  items: 'id',
  batches: 'id',
  payers: 'payer',
  callbacks: 'index',
  balances: 'product',
  faults: 'id',
  apiUsers: 'id',
} as const satisfies Partial<Record<keyof PageSnapshot, string>>;

type ListName = keyof typeof LIST_KEYS;

/** One list's change: entries new or changed (with their keys), keys gone, and the order. */
export interface ListChange {
  upsert?: [string, unknown][];
  remove?: string[];
  /** New keys go first (`start`) or last (`end`), the others keep their order... */
  at?: 'start' | 'end';
  /** ...or the whole order, when it changed otherwise. */
  order?: string[];
}

/** A `change` event's data: what differs from the state the page holds. */
export interface PageChange {
  set?: Record<string, unknown>;
  lists?: Partial<Record<ListName, ListChange>>;
}

/** A snapshot as the feed compares it: each entry's JSON by key, and the keys' order. */
export interface IndexedState {
  readonly scalars: ReadonlyMap<string, string>;
  readonly lists: ReadonlyMap<ListName, { order: string[]; json: Map<string, string> }>;
  readonly snapshot: PageSnapshot;
}

const LISTS = Object.keys(LIST_KEYS) as ListName[];

export function indexState(snapshot: PageSnapshot): IndexedState {
  const scalars = new Map<string, string>();
  for (const [name, value] of Object.entries(snapshot)) {
    if (!Array.isArray(value)) scalars.set(name, JSON.stringify(value));
  }
  const lists = new Map<ListName, { order: string[]; json: Map<string, string> }>();
  for (const name of LISTS) {
    const field = LIST_KEYS[name];
    const order: string[] = [];
    const json = new Map<string, string>();
    for (const entry of snapshot[name] as readonly Record<string, unknown>[]) {
      const key = String(entry[field]);
      order.push(key);
      json.set(key, JSON.stringify(entry));
    }
    lists.set(name, { order, json });
  }
  return { scalars, lists, snapshot };
}

/** What changed from `before` to `after`; undefined when nothing did. */
export function diffStates(before: IndexedState, after: IndexedState): PageChange | undefined {
  const set: Record<string, unknown> = {};
  for (const [name, json] of after.scalars) {
    if (before.scalars.get(name) !== json) set[name] = JSON.parse(json);
  }
  const lists: Partial<Record<ListName, ListChange>> = {};
  for (const name of LISTS) {
    const old = before.lists.get(name) ?? { order: [], json: new Map<string, string>() };
    const now = after.lists.get(name) ?? { order: [], json: new Map<string, string>() };
    const change: ListChange = {};
    const upsert = now.order.flatMap((key): [string, unknown][] => {
      const json = now.json.get(key) as string;
      return old.json.get(key) === json ? [] : [[key, JSON.parse(json)]];
    });
    const remove = old.order.filter((key) => !now.json.has(key));
    if (upsert.length > 0) change.upsert = upsert;
    if (remove.length > 0) change.remove = remove;
    const placed = orderChange(old.order, now.order, old.json);
    if (placed) Object.assign(change, placed);
    if (Object.keys(change).length > 0) lists[name] = change;
  }
  const change: PageChange = {
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(Object.keys(lists).length > 0 ? { lists } : {}),
  };
  return change.set || change.lists ? change : undefined;
}

/**
 * How the keys' order changed: nothing, new keys before or after the others (a new
 * transaction on top, a callback at the end: the usual cases, no order sent), or the
 * whole order.
 */
function orderChange(
  before: readonly string[],
  after: readonly string[],
  had: ReadonlyMap<string, string>,
): Pick<ListChange, 'at' | 'order'> | undefined {
  const now = new Set(after);
  const kept = before.filter((key) => now.has(key));
  const added = after.filter((key) => !had.has(key));
  if (added.length === 0 && sameOrder(kept, after)) return undefined;
  if (sameOrder([...added, ...kept], after)) return { at: 'start' };
  if (sameOrder([...kept, ...added], after)) return { at: 'end' };
  return { order: [...after] };
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}
