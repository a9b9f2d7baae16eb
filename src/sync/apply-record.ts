// The one path from "the booking service says this record is true now" to stored state, shared by
// the delivery worker, the poll and the reverse sync: read tolerantly, check scope, upsert (revision
// bumped only on a material change), or make it gone (left poll.filters, or 404) through the
// deletion breaker.
import { readAppointment, type ReaderOptions } from '../core/reader.ts';
import type { PollFilters } from '../config/schema.ts';
import type { AppointmentStore, UpsertOutcome } from '../store/appointment-store.ts';
import type { GoneBreaker, GoneVerdict } from './gone-breaker.ts';
import { outOfScope } from './scope.ts';

export const OUT_OF_SCOPE = 'out of scope';
export const NOT_FOUND = 'not found at the booking service';

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

/**
 * Applies one raw record. `requestedAt` is when it was asked for: a stored state seen after that is
 * fresher (a webhook re-read while a long listing ran) and wins.
 */
export function applyRecord(deps: ApplyDeps, raw: unknown, requestedAt: number, expectedKey?: string): ApplyOutcome {
  const read = readAppointment(raw, deps.reader);
  if (!read.ok) return { kind: 'unreadable', key: expectedKey, reason: read.reason };
  const a = read.appointment;
  if (expectedKey !== undefined && a.key !== expectedKey) {
    return { kind: 'unreadable', key: expectedKey, reason: `asked for appointment ${expectedKey}, the booking service answered with ${a.key}` };
  }
  const stored = deps.appointments.get(a.key);
  // Real times only: changedAt may run a little ahead (it is kept a whole second past the previous change).
  if (stored && Math.max(stored.seenAt, stored.goneAt ?? 0) > requestedAt) return { kind: 'stale', key: a.key };
  const why = outOfScope(a, deps.filters);
  if (why !== undefined) {
    const verdict = deps.gone.markGone(a.key, OUT_OF_SCOPE);
    return { kind: 'out_of_scope', key: a.key, markedGone: verdict === 'gone', held: verdict === 'held', why };
  }
  const result = deps.appointments.upsert(a);
  return { kind: result.outcome, key: a.key, revision: result.revision };
}

/** A 404/410 from the source: the one thing besides a cancelled status that makes an appointment gone. */
export function applyNotFound(deps: Pick<ApplyDeps, 'gone'>, key: string): GoneVerdict {
  return deps.gone.markGone(key, NOT_FOUND);
}
