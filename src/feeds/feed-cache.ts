// Feed bodies kept ready, with nothing in memory that grows with what is stored: which appointments
// each feed holds and at which revision lives in SQLite (FeedMemberStore), kept current from change
// notices; the rendered fragments stay in SQLite; the assembled body is a file (FeedBodyStore), small
// ones also in memory. What is held here per feed is its ETag, Last-Modified and that body's handle.
// A request that finds nothing changed costs a clock reading and an array lookup; a 304 never
// assembles anything. An assembly (rendering what is missing, then writing the body) runs in slices
// of a few milliseconds and lets the event loop go between them: 100,000 events held it about a
// second in one piece, and webhooks and /healthz waited that long.
import type { FeedConfig } from '../config/schema.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { FeedFragmentStore } from '../store/feed-fragment-store.ts';
import { FeedBodyStore, type BodyToSend, type Representation, type StoredBody } from '../store/feed-body-store.ts';
import type { FeedPlace, MemberChanges } from '../store/feed-member-store.ts';
import { hashOf, sha256Hex } from '../core/hash.ts';
import type { Clock } from '../core/clock.ts';
import { memberChange, memberOf, rowOf, type Held } from './members.ts';
import { placeInFeed } from './feed-filter.ts';
import { renderEvent, styleVariant } from '../ical/render-event.ts';
import { feedAssembler, nextLastModified, renderHeader } from './assemble.ts';

export type { BodyToSend, Representation };

export interface CachedFeed extends Representation {
  /** sha256 of the body, hex. */
  hash: string;
  /** Epoch ms, whole seconds; grows whenever the body changes. */
  lastModified: number;
  events: number;
  /** The gzip copy, made on the first ask; undefined when this body was replaced meanwhile (ask for the feed again). */
  gzipped(): Promise<Representation | undefined>;
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
  /** Everything besides the members that makes the body: a stored body made with another is not used. */
  shape: string;
  /** Undefined when a member changed since the last assembly. */
  served: (CachedFeed & { body: StoredBody }) | undefined;
  summary: FeedSummary | undefined;
  /** Grows whenever its members change. */
  changes: number;
  /** The assembly under way, which every request for the feed meanwhile waits for. */
  building: Promise<NonNullable<Entry['served']>> | undefined;
}

export interface FeedCacheDeps {
  feeds: readonly FeedConfig[];
  appointments: AppointmentStore;
  store: FeedFragmentStore;
  bodies: FeedBodyStore;
  clock: Clock;
  /** How many events were just rendered (for metrics). */
  onRendered?(count: number): void;
}

// Past this many pending keys one pass over every row is done instead. Read in batches of KEYS_AT_ONCE,
// pending keys cost about what the pass costs per row, and an import keeps adding them between two
// status calls: a pass over every row on each call cost 100 to 240 ms at 20,000 stored. Bounded all
// the same (a few hundred kilobytes of keys), as nothing here grows with what is stored.
const BULK = 5000;
const KEYS_AT_ONCE = 200;
// Rows judged per page of a full pass, and fragments rendered and stored together. Small on purpose:
// what survives a young-generation collection (1 MB under --max-semi-space-size=1) moves to the old
// generation, which grows and does not give its pages back; pages of 1,000 rows left 25 MB more
// resident after one pass over 100,000 appointments.
const PAGE = 200;
const RENDER_BATCH = 100;
// An assembly lets the event loop go once it has worked this long (answering a webhook takes far less).
const SLICE_MS = 10;
// How often to look for commits by other processes (a one-shot `sync`); our own come as notices.
const EXTERNAL_CHECK_MS = 1000;
// Bump when the assembly's output changes for the same members and fragments.
const ASSEMBLY_VERSION = 1;

export class FeedCache {
  private readonly entries: Entry[];
  private readonly dirty = new Set<string>();
  /** More changed than BULK: the next refresh passes over every row (the keys are not kept). */
  private reloadDue = false;
  /** Membership in SQLite is current as of this process's first full pass. */
  private loaded = false;
  private swept = false;
  private dataVersion = -1;
  private checkedAt = -Infinity;
  private stamp = '';
  /** This process keeps membership current (serve); others count from the appointments. */
  private serving = false;
  /** Assemblies run one after another, never two at once. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * A body is being written from the members: they are not changed meanwhile (the pending changes
   * wait), so the body is one state of the feed, never a mix of two.
   */
  private writing = false;
  private stopped = false;

  constructor(private readonly deps: FeedCacheDeps) {
    this.entries = deps.feeds.map((feed) => {
      const variant = styleVariant(feed);
      const header = renderHeader(feed);
      const selection = { filters: feed.filters, include_cancelled: feed.include_cancelled };
      return {
        feed,
        id: sha256Hex(`feed:${feed.token}`).slice(0, 32),
        variant,
        header,
        shape: hashOf({ v: ASSEMBLY_VERSION, variant, header, selection }).slice(0, 32),
        served: undefined,
        summary: undefined,
        building: undefined,
        changes: 0,
      };
    });
  }

  /** Called from AppointmentStore.onChange: cheap, the work happens on the next request. */
  noteChange(key: string): void {
    if (this.reloadDue) return;
    this.dirty.add(key);
    if (this.dirty.size > BULK) {
      this.reloadDue = true;
      this.dirty.clear();
    }
  }

  /** The daemon stops: an assembly under way ends at its next slice (with FeedCacheStopped). */
  stop(): void {
    this.stopped = true;
  }

  /** This process serves the feeds: it keeps their members in SQLite current, and counts from them. */
  serve(): void {
    this.serving = true;
  }

  /**
   * The feed's current body, at once when nothing changed since it was made; else a promise of it,
   * assembled (and missing events rendered) in slices. A request while the feed is being assembled
   * waits for that assembly: the body it gets, and the ETag of it, are of one state of the feed.
   */
  feed(index: number): CachedFeed | Promise<CachedFeed> {
    this.refresh();
    const entry = this.entry(index);
    if (entry.served) return entry.served;
    const building = (entry.building ??= this.build(entry).finally(() => {
      entry.building = undefined;
    }));
    return building;
  }

  /** Count and last change, without rendering anything (status; also from a process that does not serve). */
  summary(index: number): FeedSummary {
    const entry = this.entry(index);
    // A process that has not taken over membership (`calbridge status` beside a running serve)
    // counts from the appointments and writes nothing.
    if (!this.loaded && !this.serving) return this.countFromRows(entry);
    this.refresh();
    return (entry.summary ??= this.deps.store.members.summary(entry.id));
  }

  private entry(index: number): Entry {
    const entry = this.entries[index];
    if (!entry) throw new RangeError(`no feed number ${index}`);
    return entry;
  }

  private refresh(): void {
    if (this.writing) return;
    const now = this.deps.clock.now();
    const due = now - this.checkedAt >= EXTERNAL_CHECK_MS || now < this.checkedAt;
    // Another process commits without our change notices: when SQLite says someone did, compare a stamp.
    if (!this.loaded || due) {
      this.checkedAt = now;
      const version = this.deps.appointments.dataVersion();
      if (!this.loaded || version !== this.dataVersion) {
        this.dataVersion = version;
        const stamp = this.deps.appointments.changeStamp();
        if (!this.loaded || stamp !== this.stamp) {
          this.stamp = stamp;
          return this.reload();
        }
      }
    }
    if (this.reloadDue) return this.reload();
    if (this.dirty.size === 0) return;
    const keys = [...this.dirty];
    this.dirty.clear();
    for (let at = 0; at < keys.length; at += KEYS_AT_ONCE) {
      // Keys of rows no longer stored are skipped, as they always were (retention removes only rows
      // that left every feed, or are about to by the same pass).
      const rows = this.deps.appointments.filterRowsOf(keys.slice(at, at + KEYS_AT_ONCE));
      this.apply(
        this.entries.map((e): MemberChanges => {
          const held = this.deps.store.members.heldOf(
            e.id,
            rows.map((r) => r.key),
          );
          const put = [];
          const remove = [];
          for (const row of rows) {
            const change = memberChange(held.get(row.key), row, e.feed);
            if (change === 'put') put.push(memberOf(row));
            else if (change === 'remove') remove.push(row.key);
          }
          return { feedId: e.id, put, remove };
        }),
      );
    }
  }

  /** One pass over every row, a page at a time, bringing each feed's stored members up to date. */
  private reload(): void {
    this.dirty.clear();
    this.reloadDue = false;
    const members = this.deps.store.members;
    if (!this.loaded) members.keepOnly(this.entries.map((e) => e.id));
    let after = '';
    for (;;) {
      const rows = this.deps.appointments.filterRowPage(after, PAGE);
      // Up to the last row read; after a short page, to the end (members of rows that went away).
      const upTo = rows.length === PAGE ? rows[rows.length - 1]!.key : null;
      const changes = this.entries.map((e): MemberChanges => {
        const held: Map<string, Held> = members.range(e.id, after, upTo);
        const put = [];
        for (const row of rows) {
          const change = memberChange(held.get(row.key), row, e.feed);
          if (change === 'put') put.push(memberOf(row));
          // What is left in `held` leaves the feed: rows it no longer shows, and rows that are gone.
          if (change !== 'remove') held.delete(row.key);
        }
        return { feedId: e.id, put, remove: [...held.keys()] };
      });
      this.apply(changes);
      if (upTo === null) break;
      after = upTo;
    }
    this.loaded = true;
  }

  /** Stores member changes; a feed they touch is assembled again on its next request. */
  private apply(changes: MemberChanges[]): void {
    if (changes.every((c) => c.put.length === 0 && c.remove.length === 0)) return;
    this.deps.store.members.apply(changes);
    changes.forEach((c, i) => {
      const entry = this.entries[i]!;
      if (c.put.length === 0 && c.remove.length === 0) return;
      entry.served?.body.retire();
      entry.served = undefined;
      entry.summary = undefined;
      entry.changes++;
    });
  }

  private countFromRows(entry: Entry): FeedSummary {
    let events = 0;
    let lastChange: number | null = null;
    for (const row of this.deps.appointments.filterRows()) {
      if (placeInFeed(row.facts, row.gone, entry.feed) === 'absent') continue;
      events++;
      lastChange = Math.max(lastChange ?? 0, row.changedAt);
    }
    return { events, lastChange };
  }

  /**
   * The body an earlier run stored, when nothing that makes it changed since: a restart serves it
   * without assembling. The first time here also removes files no feed uses any more.
   */
  private stored(entry: Entry): Entry['served'] {
    if (!this.swept) this.sweep();
    const state = this.deps.store.state(entry.id);
    if (!state || state.shape !== entry.shape) return undefined;
    const body = this.deps.bodies.stored(entry.id, state.etag);
    if (!body) return undefined;
    const { events } = this.deps.store.members.summary(entry.id);
    return served(body, state.lastModified, events);
  }

  private sweep(): void {
    this.swept = true;
    this.deps.store.prune(this.entries.map((e) => e.variant));
    const keep = new Set<string>();
    for (const e of this.entries) {
      const state = this.deps.store.state(e.id);
      if (state && state.shape === e.shape) keep.add(FeedBodyStore.fileName(e.id, state.etag));
    }
    this.deps.bodies.sweep(keep);
  }

  /** After the assemblies before it: the stored body when it is still current, else a new one. */
  private build(entry: Entry): Promise<NonNullable<Entry['served']>> {
    const run = this.queue.then(async () => {
      this.refresh();
      // Nothing changed since an earlier run stored its body: serve that.
      const stored = this.stored(entry);
      if (stored) return (entry.served = stored);
      await this.renderMissing(entry);
      // Rendered up to now, and from here no member changes until the body is written.
      this.writing = true;
      try {
        return (entry.served = await this.assemble(entry));
      } finally {
        this.writing = false;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Writes the body from the members and their stored fragments, a page at a time. */
  private async assemble(entry: Entry): Promise<NonNullable<Entry['served']>> {
    const writer = this.deps.bodies.writer(entry.id);
    let maxChange = 0;
    let events: number;
    try {
      const assembler = feedAssembler(entry.header, (chunk) => writer.write(chunk));
      const slice = new Slice(() => this.stopped);
      let after: FeedPlace | null = null;
      for (;;) {
        const page = this.deps.store.members.feedOrderPage(entry.id, entry.variant, after, PAGE);
        for (const row of page) {
          maxChange = Math.max(maxChange, row.changedAt);
          assembler.add(row.body);
        }
        if (page.length < PAGE) break;
        after = page[page.length - 1]!;
        await slice.pause();
      }
      events = assembler.finish();
    } catch (e) {
      writer.abort();
      throw e;
    }
    const body = writer.finish();
    const previous = this.deps.store.state(entry.id);
    const next = nextLastModified(previous, body.hash, maxChange);
    this.deps.store.setState(entry.id, { ...next, shape: entry.shape });
    return served(body, next.lastModified, events);
  }

  /**
   * Renders and stores the fragments the feed's members lack (new, or of another revision), a batch
   * at a time: a first assembly of 100,000 events never holds them all rendered at once. Members
   * that change meanwhile are rendered too: this ends when none lacks its fragment.
   */
  private async renderMissing(entry: Entry): Promise<void> {
    const members = this.deps.store.members;
    const slice = new Slice(() => this.stopped);
    let after = '';
    let changes = entry.changes;
    for (;;) {
      const missing = members.unrendered(entry.id, entry.variant, after, RENDER_BATCH);
      if (missing.length === 0) {
        // Members changed while the event loop was away (requests refresh them): another pass.
        this.refresh();
        if (entry.changes === changes) return;
        changes = entry.changes;
        after = '';
        continue;
      }
      const batch = new Map<string, { revision: number; body: string }>();
      const followed: MemberChanges = { feedId: entry.id, put: [], remove: [] };
      for (const { key, revision } of missing) {
        const stored = this.deps.appointments.get(key);
        if (!stored) continue;
        batch.set(key, { revision: stored.revision, body: renderEvent(stored, entry.feed) });
        // Written by another process since it was placed: follow the stored state.
        if (stored.revision !== revision) followed.put.push(memberOf(rowOf(stored)));
      }
      this.deps.store.save(entry.variant, batch);
      if (followed.put.length) {
        members.apply([followed]);
        entry.summary = undefined;
      }
      this.deps.onRendered?.(batch.size);
      after = missing[missing.length - 1]!.key;
      await slice.pause();
    }
  }
}

export class FeedCacheStopped extends Error {
  constructor() {
    super('the feeds stopped while a feed was being assembled');
  }
}

/** Lets the event loop go (to answer what came meanwhile) once SLICE_MS of work is done. */
class Slice {
  private started = performance.now();

  constructor(private readonly stopped: () => boolean) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The daemon stopped meanwhile (its database closes): the assembly ends here, its temporary file removed.
    if (this.stopped()) throw new FeedCacheStopped();
    this.started = performance.now();
  }
}

function served(body: StoredBody, lastModified: number, events: number): NonNullable<Entry['served']> {
  return { hash: body.hash, lastModified, events, bytes: body.bytes, body, open: () => body.open(), gzipped: () => body.gzipped() };
}
