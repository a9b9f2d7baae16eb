// A calendar target that reads for real and holds every write back (the dry run). A held write is
// remembered as a shadow of the event it would have left, and answered as the target would answer
// it: a create over an existing id is `exists`, an update on an old etag is `changed`, and later
// reads and change listings show the shadow. So the writer's and the reverse sync's decisions (the
// mirror core's) run on the same answers as in a real pass, and list the same writes.
import type {
  CalendarTarget,
  ChangeBatch,
  GetResult,
  Precondition,
  PutResult,
  RemoveResult,
  TargetEvent,
} from '../../core/mirror/target.ts';
import type { HeldWrites } from './planned.ts';

/** What a target's event body shows, as the shadow of a held write needs it. */
export interface BodyFacts {
  appointmentKey: string | null;
  title: string;
  start: number;
  end: number;
  /** The content hash our writes store in the event. */
  ourHash: string | null;
}

const at = (calendarId: string, eventId: string) => `${calendarId}\n${eventId}`;

/** How to read a target's bodies, and whose event an id is (a delete carries no body). */
export interface TargetFacts<B> {
  body(body: B): BodyFacts;
  keyOf(calendarId: string, eventId: string): string | null;
}

export function captureTarget<B>(name: string, real: CalendarTarget<B>, facts: TargetFacts<B>, held: HeldWrites): CalendarTarget<B> {
  const shadows = new Map<string, { calendarId: string; event: TargetEvent }>();
  let written = 0;

  async function current(calendarId: string, eventId: string): Promise<GetResult> {
    const shadow = shadows.get(at(calendarId, eventId));
    if (shadow) return { kind: 'found', event: shadow.event };
    return real.get(calendarId, eventId);
  }

  function shadowOf(calendarId: string, eventId: string, event: Omit<TargetEvent, 'id' | 'etag'>): string {
    const etag = `"dry-run-${++written}"`;
    shadows.set(at(calendarId, eventId), { calendarId, event: { id: eventId, etag, ...event } });
    return etag;
  }

  return {
    get: current,

    async put(calendarId: string, eventId: string, body: B, condition: Precondition): Promise<PutResult> {
      const now = await current(calendarId, eventId);
      const found = now.kind === 'found' ? now.event : null;
      if (condition.kind === 'absent' && found) return { kind: 'exists' };
      if (condition.kind !== 'absent' && !found) return { kind: 'missing' };
      if (condition.kind === 'etag' && found?.etag !== condition.etag) return { kind: 'changed' };
      const f = facts.body(body);
      held.hold({
        kind: 'target',
        target: name,
        op: condition.kind === 'absent' ? 'create' : 'update',
        calendarId,
        eventId,
        appointmentKey: f.appointmentKey,
        shows: { title: f.title, start: f.start },
      });
      const etag = shadowOf(calendarId, eventId, { deleted: false, start: f.start, end: f.end, ourHash: f.ourHash });
      return { kind: 'written', etag };
    },

    async remove(calendarId: string, eventId: string, etag: string | null): Promise<RemoveResult> {
      const now = await current(calendarId, eventId);
      if (now.kind === 'missing' || now.event.deleted) return { kind: 'missing' };
      if (etag !== null && now.event.etag !== etag) return { kind: 'changed' };
      held.hold({
        kind: 'target',
        target: name,
        op: 'delete',
        calendarId,
        eventId,
        appointmentKey: facts.keyOf(calendarId, eventId),
        shows: null,
      });
      shadowOf(calendarId, eventId, { deleted: true, start: null, end: null, ourHash: null });
      return { kind: 'removed' };
    },

    async changes(calendarId: string, cursor: string | null): Promise<ChangeBatch> {
      const batch = await real.changes(calendarId, cursor);
      const mine = [...shadows.values()].filter((s) => s.calendarId === calendarId).map((s) => s.event);
      const ids = new Set(mine.map((e) => e.id));
      // Our held writes show in the listing as they would after a real pass: as our own echoes.
      const events = [...batch.events.filter((e) => !ids.has(e.id)), ...mine.filter((e) => batch.mode === 'incremental' || !e.deleted)];
      return { ...batch, events };
    },
  };
}
