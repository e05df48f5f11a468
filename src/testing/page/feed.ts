import type { Engine } from '../engine';
import { diffStates, type IndexedState, indexState } from './diff';
import { snapshot } from './snapshot';

/** How often the state is compared while a page is open: live enough, and cheap. */
const CHECK_MS = 200;

/** What a page is sent: the whole state once (`state`), then what changed (`change`). */
export interface PageEvent {
  readonly event: 'state' | 'change';
  readonly data: string;
}

type Listener = (sent: PageEvent) => void;

/**
 * The payer's phone pages of one engine: each gets the whole state as JSON at once, then
 * only what changed (entries new, changed or gone, by key) whenever something did: with
 * 4,000 transactions the whole state was 3.6 MB per event, and a settled one changes one
 * entry. Changes are found by comparing snapshots (checked every 200 ms while a page is
 * open, at once after a page's own action), so every state change the engine makes
 * shows up without the engine announcing it. Every open page holds the same state: a new
 * one is sent the changes of the others first, then the whole state.
 */
export class PageFeed {
  private readonly listeners = new Set<Listener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private last: IndexedState | undefined;

  constructor(private readonly engine: Engine) {}

  subscribe(listener: Listener): () => void {
    this.notify(); // the open pages brought to now, so that all hold `last`
    const current = this.last ?? this.current();
    this.listeners.add(listener);
    listener({ event: 'state', data: JSON.stringify(current.snapshot) });
    this.timer ??= setInterval(() => this.notify(), CHECK_MS);
    this.timer.unref?.();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
        this.last = undefined; // the next page starts from a whole state anyway
      }
    };
  }

  /** Sends every page what changed since the last send, if anything did. */
  notify(): void {
    if (this.listeners.size === 0) return;
    const before = this.last;
    const after = this.current();
    const change = before ? diffStates(before, after) : undefined;
    if (!change) return;
    const sent: PageEvent = { event: 'change', data: JSON.stringify(change) };
    for (const listener of this.listeners) listener(sent);
  }

  private current(): IndexedState {
    this.last = indexState(snapshot(this.engine));
    return this.last;
  }
}

const feeds = new WeakMap<Engine, PageFeed>();

/** The one feed of an engine, shared by every server that serves it. */
export function feedOf(engine: Engine): PageFeed {
  let feed = feeds.get(engine);
  if (!feed) {
    feed = new PageFeed(engine);
    feeds.set(engine, feed);
  }
  return feed;
}
