import type { Engine } from '../engine';
import { snapshot } from './snapshot';

/** How often the state is compared while a page is open: live enough, and cheap. */
const CHECK_MS = 200;

type Listener = (json: string) => void;

/**
 * The payer's phone pages of one engine: each gets the state as JSON at once, then again
 * whenever it changed. Changes are found by comparing snapshots (checked every 200 ms
 * while a page is open, at once after a page's own action), so every state change the
 * engine makes shows up without the engine announcing it.
 */
export class PageFeed {
  private readonly listeners = new Set<Listener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private last = '';

  constructor(private readonly engine: Engine) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.current());
    this.timer ??= setInterval(() => this.notify(), CHECK_MS);
    this.timer.unref?.();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** Sends the state to every page if it changed since the last send. */
  notify(): void {
    if (this.listeners.size === 0) return;
    const before = this.last;
    const json = this.current();
    if (json === before) return;
    for (const listener of this.listeners) listener(json);
  }

  private current(): string {
    this.last = JSON.stringify(snapshot(this.engine));
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
