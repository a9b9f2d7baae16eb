// Feed bodies kept ready, with nothing in memory that grows with what is stored: which appointments
// each feed holds and at which revision lives in SQLite (FeedMemberStore), kept current from change
// notices; the rendered fragments stay in SQLite; the assembled body is a file (FeedBodyStore), small
// ones also in memory. What is held here per feed is its ETag, Last-Modified and that body's handle.
// A request that finds nothing changed costs a clock reading and an array lookup; a 304 never
// assembles anything. An assembly (rendering what is missing, then writing the body) runs in slices
// of a few milliseconds and lets the event loop go between them: 100,000 events held it about a
// second in one piece, and webhooks and /healthz waited that long. So does a pass over every stored
// row (full-pass.ts: after a restart, a commit by another process, a bulk change); status answers
// from the stored members meanwhile, and a feed request waits for it.
import type { FeedConfig } from '../config/schema.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { FeedFragmentStore } from '../store/feed-fragment-store.ts';
import { FeedBodyStore, type BodyToSend, type Representation, type StoredBody } from '../store/feed-body-store.ts';
import type { FeedPlace, MemberChanges } from '../store/feed-member-store.ts';
import { hashOf, sha256Hex } from '../core/hash.ts';
import type { Clock } from '../core/clock.ts';
import { memberChange, memberOf, rowOf } from './members.ts';
import { placeInFeed } from './feed-filter.ts';
import { renderEvent, styleVariant } from '../ical/render-event.ts';
import type { Messages } from '../core/i18n/index.ts';
import { feedAssembler, nextLastModified, renderHeader } from './assemble.ts';
import { FullPass, PAGE } from './full-pass.ts';
import { FeedCacheStopped, Slice } from './slice.ts';

export type { BodyToSend, Representation };
export { FeedCacheStopped };

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
  /** server.locale's catalogue: the default description and {status_label} (English without). */
  messages?: Messages;
  /** How many events were just rendered (for metrics). */
  onRendered?(count: number): void;
}

// Past this many pending keys one pass over every row is done instead. Read in batches of KEYS_AT_ONCE,
// pending keys cost about what the pass costs per row, and an import keeps adding them between two
// status calls: a pass over every row on each call held the event loop far too long. Bounded all
// the same (a few hundred kilobytes of keys), as nothing here grows with what is stored.
const BULK = 5000;
const KEYS_AT_ONCE = 200;
// Fragments rendered and stored together: small for the reason pages are (full-pass.ts).
const RENDER_BATCH = 100;
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
  /**
   * The full pass under way (one at a time: a refresh meanwhile joins it), with its promise. Changes
   * noted meanwhile to rows it has passed wait in `dirty` and are applied after it.
   */
  private pass: { rows: FullPass; done: Promise<void> } | undefined;
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
      const variant = styleVariant({ ...feed, ...(deps.messages ? { messages: deps.messages } : {}) });
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
    // A pass under way reads this row when it gets there, as it is then.
    if (this.pass?.rows.ahead(key)) return;
    this.dirty.add(key);
    if (this.dirty.size <= BULK) return;
    this.dirty.clear();
    // Too many rows the pass already read changed: it starts over (rather than end and begin again).
    if (!this.pass?.rows.restart()) this.reloadDue = true;
  }

  /** The daemon stops: an assembly or a pass under way ends at its next slice (with FeedCacheStopped). */
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
   * A pass over every row under way (or started here) is waited for as well, as it may change the body.
   */
  feed(index: number): CachedFeed | Promise<CachedFeed> {
    const pass = this.refresh();
    const entry = this.entry(index);
    if (entry.served && !pass) return entry.served;
    const building = (entry.building ??= this.build(entry).finally(() => {
      entry.building = undefined;
    }));
    return building;
  }

  /**
   * Count and last change, without rendering anything (status; also from a process that does not
   * serve). Never waits for a pass over every row: while one is under way (started here if due) this
   * counts what the stored members hold now (after a restart, the previous run's, which is close);
   * once it ends, the counts are current again.
   */
  summary(index: number): FeedSummary {
    const entry = this.entry(index);
    // A process that has not taken over membership (`calbridge status` beside a running serve)
    // counts from the appointments and writes nothing.
    if (!this.loaded && !this.serving) return this.countFromRows(entry);
    this.refresh();
    // Each page a pass stores clears this when it touched the feed, so it is never older than the members.
    return (entry.summary ??= this.deps.store.members.summary(entry.id));
  }

  private entry(index: number): Entry {
    const entry = this.entries[index];
    if (!entry) throw new RangeError(`no feed number ${index}`);
    return entry;
  }

  /**
   * Brings the stored members up to date with what changed: a few keys at once; when a pass over every
   * row is due, starts it (or finds it under way) and returns it, for whoever must wait for it.
   */
  private refresh(): Promise<void> | undefined {
    if (this.writing) return undefined;
    if (this.pass) return this.pass.done;
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
          return this.startPass();
        }
      }
    }
    if (this.reloadDue) return this.startPass();
    if (this.dirty.size === 0) return undefined;
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
    return undefined;
  }

  /**
   * A pass over every row, in slices; its first page runs before this returns, and undefined is
   * returned when that was all of it (nothing to wait for). The keys noted so far are covered by it.
   */
  private startPass(): Promise<void> | undefined {
    this.dirty.clear();
    this.reloadDue = false;
    if (!this.loaded) this.deps.store.members.keepOnly(this.entries.map((e) => e.id));
    const rows = new FullPass(this.deps.appointments, this.deps.store.members, this.entries, (changes) => this.apply(changes));
    const pass = { rows, done: Promise.resolve() };
    this.pass = pass;
    pass.done = this.runPass(rows);
    // Started by status, nobody may wait for it: its failure must not be an unhandled rejection (a
    // feed request waiting for it sees it).
    pass.done.catch(() => undefined);
    // Done in its first page: nothing to wait for, unless it failed (whoever waits is told why).
    return this.pass || this.reloadDue ? pass.done : undefined;
  }

  /**
   * The pass's pages, letting the event loop go between slices. Its end is marked in the same step as
   * its last page, so a change noted right after is kept (not taken for one the pass will read). A
   * pass that fails (not stopped) is due again on the next refresh.
   */
  private async runPass(rows: FullPass): Promise<void> {
    const slice = new Slice(() => this.stopped);
    // The first page runs in the caller's step (a small store is then done at once, as when the pass
    // was one piece); then the event loop goes: the caller is answered, and what was waiting
    // (webhooks, /healthz) goes before the rest.
    slice.endNow();
    try {
      while (!rows.page()) await slice.pause();
      this.loaded = true;
    } catch (e) {
      if (!(e instanceof FeedCacheStopped)) this.reloadDue = true;
      throw e;
    } finally {
      this.pass = undefined;
    }
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
      // Every change so far applied, waiting for passes over every row until none is due.
      for (let pass = this.refresh(); pass; pass = this.refresh()) await pass;
      // The pass waited for changed nothing of this feed: its body stands.
      if (entry.served) return entry.served;
      // Nothing changed since an earlier run stored its body: serve that.
      const stored = this.stored(entry);
      if (stored) return (entry.served = stored);
      try {
        // Ends with every member rendered and the members held (`writing`) until the body is written.
        await this.renderMissing(entry);
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
   * that change meanwhile are rendered too: this ends when none lacks its fragment, and then holds
   * the members (`writing`) in the same step as that last look, so none changes before the body is written.
   */
  private async renderMissing(entry: Entry): Promise<void> {
    const members = this.deps.store.members;
    const slice = new Slice(() => this.stopped);
    let after = '';
    let changes = entry.changes;
    for (;;) {
      const missing = members.unrendered(entry.id, entry.variant, after, RENDER_BATCH);
      if (missing.length === 0) {
        // Members changed while the event loop was away (requests refresh them, a pass over every row
        // may have begun): another look once they are current.
        const pass = this.refresh();
        if (pass) {
          await pass;
          continue;
        }
        if (entry.changes === changes) {
          this.writing = true;
          return;
        }
        changes = entry.changes;
        after = '';
        continue;
      }
      const batch = new Map<string, { revision: number; body: string }>();
      const followed: MemberChanges = { feedId: entry.id, put: [], remove: [] };
      for (const { key, revision } of missing) {
        const stored = this.deps.appointments.get(key);
        if (!stored) continue;
        batch.set(key, {
          revision: stored.revision,
          body: renderEvent(stored, { ...entry.feed, ...(this.deps.messages ? { messages: this.deps.messages } : {}) }),
        });
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

function served(body: StoredBody, lastModified: number, events: number): NonNullable<Entry['served']> {
  return { hash: body.hash, lastModified, events, bytes: body.bytes, body, open: () => body.open(), gzipped: () => body.gzipped() };
}
