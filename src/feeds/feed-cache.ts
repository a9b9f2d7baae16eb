// Feed bodies kept ready: which appointments each feed holds (kept current from change notices),
// which revision of each is rendered (the rendered fragments themselves stay in SQLite: 100,000 of
// them would be tens of megabytes held for a body that is already assembled), and the assembled body
// with its ETag.
// A request that finds nothing changed costs a clock reading and a map lookup.
import { gzipSync } from 'node:zlib';
import type { FeedConfig } from '../config/schema.ts';
import type { AppointmentStore, FilterRow } from '../store/appointment-store.ts';
import type { FeedFragmentStore } from '../store/feed-fragment-store.ts';
import { sha256Hex } from '../core/hash.ts';
import type { Clock } from '../core/clock.ts';
import { inFeedOrder, placeRow, rowOf, sameMembers, type Members } from './members.ts';
import { renderEvent, styleVariant } from '../ical/render-event.ts';
import { assembleFeed, nextLastModified, renderHeader } from './assemble.ts';

export interface CachedFeed {
  body: Buffer;
  /** sha256 of the body, hex. */
  hash: string;
  /** Epoch ms, whole seconds; grows whenever the body changes. */
  lastModified: number;
  events: number;
  gzipped(): Buffer;
}

export interface FeedSummary {
  events: number;
  /** Latest change among the feed's events, or null when it has none. */
  lastChange: number | null;
}

interface Entry {
  feed: FeedConfig;
  /** A hash of the token: the feed's identity in storage (the token itself is never stored). */
  id: string;
  variant: string;
  header: string;
  members: Members;
  /** Undefined when a member changed since the last assembly. */
  served: CachedFeed | undefined;
}

export interface FeedCacheDeps {
  feeds: readonly FeedConfig[];
  appointments: AppointmentStore;
  store: FeedFragmentStore;
  clock: Clock;
  /** How many events were just rendered (for metrics). */
  onRendered?(count: number): void;
}

// Past this many pending keys one bulk read beats reading them one by one.
const BULK = 200;
// Fragments rendered and stored together, in one transaction.
const RENDER_BATCH = 500;
// How often to look for commits by other processes (a one-shot `sync`); our own come as notices.
const EXTERNAL_CHECK_MS = 1000;

export class FeedCache {
  private readonly entries: Entry[];
  /** Per style variant: the revision of each appointment whose fragment is rendered and stored. */
  private readonly rendered = new Map<string, Map<string, number>>();
  private readonly dirty = new Set<string>();
  private loaded = false;
  private pruned = false;
  private dataVersion = -1;
  private checkedAt = -Infinity;
  private stamp = '';

  constructor(private readonly deps: FeedCacheDeps) {
    this.entries = deps.feeds.map((feed) => ({
      feed,
      id: sha256Hex(`feed:${feed.token}`).slice(0, 32),
      variant: styleVariant(feed),
      header: renderHeader(feed),
      members: new Map(),
      served: undefined,
    }));
  }

  /** Called from AppointmentStore.onChange: cheap, the work happens on the next request. */
  noteChange(key: string): void {
    this.dirty.add(key);
  }

  /** The feed's current body, assembled (and missing events rendered) only if something changed. */
  feed(index: number): CachedFeed {
    this.refresh();
    const entry = this.entry(index);
    return (entry.served ??= this.assemble(entry));
  }

  /** Count and last change, without rendering anything (status). */
  summary(index: number): FeedSummary {
    this.refresh();
    const entry = this.entry(index);
    let lastChange: number | null = null;
    for (const m of entry.members.values()) lastChange = Math.max(lastChange ?? 0, m.changedAt);
    return { events: entry.members.size, lastChange };
  }

  private entry(index: number): Entry {
    const entry = this.entries[index];
    if (!entry) throw new RangeError(`no feed number ${index}`);
    return entry;
  }

  private refresh(): void {
    const now = this.deps.clock.now();
    const due = now - this.checkedAt >= EXTERNAL_CHECK_MS || now < this.checkedAt;
    // Another process commits without our change notices: when SQLite says someone did, compare a stamp.
    if (!this.loaded || due) {
      this.checkedAt = now;
      const version = this.deps.appointments.dataVersion();
      if (!this.loaded || version !== this.dataVersion) {
        this.dataVersion = version;
        const stamp = this.deps.appointments.changeStamp();
        if (!this.loaded || stamp !== this.stamp || this.dirty.size > BULK) {
          this.stamp = stamp;
          this.reload();
          return;
        }
      }
    }
    if (this.dirty.size > BULK) return this.reload();
    for (const key of this.dirty) {
      const stored = this.deps.appointments.get(key);
      if (stored) this.place(rowOf(stored));
    }
    this.dirty.clear();
  }

  private reload(): void {
    this.dirty.clear();
    const previous = this.entries.map((e) => e.members);
    for (const e of this.entries) e.members = new Map();
    for (const row of this.deps.appointments.filterRows()) this.place(row, false);
    this.entries.forEach((e, i) => {
      if (!this.loaded || !sameMembers(previous[i] ?? new Map(), e.members)) e.served = undefined;
    });
    this.loaded = true;
  }

  /** Puts one appointment in or out of every feed; `track` marks changed feeds for re-assembly. */
  private place(row: FilterRow, track = true): void {
    for (const e of this.entries) if (placeRow(e.members, row, e.feed) && track) e.served = undefined;
  }

  private renderedOf(variant: string): Map<string, number> {
    let map = this.rendered.get(variant);
    if (!map) {
      if (!this.pruned) {
        this.pruned = true;
        this.deps.store.prune(this.entries.map((e) => e.variant));
      }
      map = this.deps.store.revisions(variant);
      this.rendered.set(variant, map);
    }
    return map;
  }

  private assemble(entry: Entry): CachedFeed {
    const revisions = this.renderedOf(entry.variant);
    const missing = [...entry.members].filter(([key, m]) => revisions.get(key) !== m.revision).map(([key]) => key);
    if (missing.length) this.render(entry, missing, revisions);

    const order = inFeedOrder(entry.members);
    const bodies = function* (store: FeedFragmentStore) {
      for (const [key] of order) yield store.body(entry.variant, key) ?? '';
    };
    const { body, hash, events } = assembleFeed(entry.header, bodies(this.deps.store));
    let maxChange = 0;
    for (const [, m] of order) maxChange = Math.max(maxChange, m.changedAt);
    const lastModified = this.lastModified(entry, hash, maxChange);
    let gzip: Buffer | undefined;
    return { body, hash, lastModified, events, gzipped: () => (gzip ??= gzipSync(body)) };
  }

  /**
   * Renders and stores the given members' fragments, a batch at a time: a first assembly of 100,000
   * events never holds them all rendered at once (the assembly reads them back in feed order).
   */
  private render(entry: Entry, keys: string[], revisions: Map<string, number>): void {
    let batch = new Map<string, { revision: number; body: string }>();
    const flush = () => {
      this.deps.store.save(entry.variant, batch);
      this.deps.onRendered?.(batch.size);
      batch = new Map();
    };
    for (const key of keys) {
      const stored = this.deps.appointments.get(key);
      if (!stored) continue;
      const fragment = { revision: stored.revision, body: renderEvent(stored, entry.feed) };
      batch.set(key, fragment);
      revisions.set(key, fragment.revision);
      // Written by another process since we placed it: follow the stored state.
      const member = entry.members.get(key);
      if (member && member.revision !== stored.revision) {
        entry.members.set(key, { start: stored.appointment.start, revision: stored.revision, changedAt: stored.changedAt });
      }
      if (batch.size >= RENDER_BATCH) flush();
    }
    flush();
  }

  private lastModified(entry: Entry, hash: string, maxChange: number): number {
    const previous = this.deps.store.state(entry.id);
    const next = nextLastModified(previous, hash, maxChange);
    if (next !== previous) this.deps.store.setState(entry.id, next);
    return next.lastModified;
  }
}
