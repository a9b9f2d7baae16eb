// The one path from "the booking service says this record is true now" to stored state, shared by
// the delivery worker, the poll and the reverse sync: read tolerantly, check scope, upsert (revision
// bumped only on a material change), or make it gone (left poll.filters, or 404) through the
// deletion breaker.
import { hash } from 'node:crypto';
import { readAppointment, type ReaderOptions } from '../core/reader.ts';
import { sha256Hex, stableStringify } from '../core/hash.ts';
import type { PollFilters } from '../config/schema.ts';
import { packageVersion } from '../version.ts';
import type { AppointmentStore, UpsertOutcome } from '../store/appointment-store.ts';
import type { GoneBreaker, GoneVerdict } from './gone-breaker.ts';
import { outOfScope } from './scope.ts';

const OUT_OF_SCOPE = 'out of scope';
const NOT_FOUND = 'not found at the booking service';

export type ApplyOutcome =
  | { kind: UpsertOutcome; key: string; revision: number }
  /** Outside poll.filters: marked gone (when it was stored and not gone already), or held by the deletion breaker. */
  | { kind: 'out_of_scope'; key: string; markedGone: boolean; held: boolean; why: string }
  /** Something fresher was stored after this record was requested; it is left alone. */
  | { kind: 'stale'; key: string }
  | { kind: 'unreadable'; key: string | undefined; reason: string };

export interface ApplyDeps {
  appointments: AppointmentStore;
  reader: ReaderOptions;
  filters: PollFilters;
  /** The one deletion breaker of the runtime: ingest and the reverse sync share it (and its metrics). */
  gone: GoneBreaker;
}

/** A change a user will see in an output: worth counting and, from the poll, worth asking "was it announced?". */
export function isChange(o: ApplyOutcome): boolean {
  return o.kind === 'created' || o.kind === 'changed' || o.kind === 'revived' || (o.kind === 'out_of_scope' && o.markedGone);
}

const settingsHashes = new WeakMap<PollFilters, { reader: ReaderOptions; hash: string }>();

/**
 * What a record's stored state follows from: its JSON text, and what reading it depends on (this
 * calbridge's version, the reader's options, poll.filters). Equal hashes mean the stored row is what
 * applying the record again would store, so a poll skips it; a new version or changed settings
 * apply every record once more.
 */
export function sourceHashOf(deps: Pick<ApplyDeps, 'reader' | 'filters'>, text: string): string {
  let settings = settingsHashes.get(deps.filters);
  if (settings?.reader !== deps.reader) {
    settings = {
      reader: deps.reader,
      hash: sha256Hex(stableStringify({ version: packageVersion(), reader: deps.reader, filters: deps.filters })),
    };
    settingsHashes.set(deps.filters, settings);
  }
  // One call per record, thousands per poll: the one-shot digest, not a Hash object each time.
  return hash('sha256', `${settings.hash}\n${text}`, 'base64');
}

/**
 * Applies one raw record. `requestedAt` is when it was asked for: a stored state seen after that is
 * fresher (a webhook re-read while a long listing ran) and wins. `sourceHash`: sourceHashOf its JSON
 * text, when the caller has it already.
 */
export function applyRecord(deps: ApplyDeps, raw: unknown, requestedAt: number, expectedKey?: string, sourceHash?: string): ApplyOutcome {
  const read = readAppointment(raw, deps.reader);
  if (!read.ok) return { kind: 'unreadable', key: expectedKey, reason: read.reason };
  const a = read.appointment;
  if (expectedKey !== undefined && a.key !== expectedKey) {
    return {
      kind: 'unreadable',
      key: expectedKey,
      reason: `asked for appointment ${expectedKey}, the booking service answered with ${a.key}`,
    };
  }
  const stored = deps.appointments.seen(a.key);
  // Real times only: changedAt may run a little ahead (it is kept a whole second past the previous change).
  if (stored && Math.max(stored.seenAt, stored.goneAt ?? 0) > requestedAt) return { kind: 'stale', key: a.key };
  const why = outOfScope(a, deps.filters);
  if (why !== undefined) {
    const verdict = deps.gone.markGone(a.key, OUT_OF_SCOPE);
    return { kind: 'out_of_scope', key: a.key, markedGone: verdict === 'gone', held: verdict === 'held', why };
  }
  const result = deps.appointments.upsert(a, sourceHash ?? sourceHashOf(deps, JSON.stringify(raw)));
  return { kind: result.outcome, key: a.key, revision: result.revision };
}

/** A 404/410 from the source: the one thing besides a cancelled status that makes an appointment gone. */
export function applyNotFound(deps: Pick<ApplyDeps, 'gone'>, key: string): GoneVerdict {
  return deps.gone.markGone(key, NOT_FOUND);
}
