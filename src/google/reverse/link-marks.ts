// How the reverse sync asks the (level-triggered) Google writer to put an event back: it marks the
// link so the writer's next pass sees "desired differs from what is in Google" and writes the
// booking state. No second writer exists; the writer records the etag of its write, so the echo of
// the revert is quiet.
import type { Db } from '../../store/db.ts';
import type { Clock } from '../../core/clock.ts';

export class LinkMarks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * The event in Google no longer shows the booking state: forget the written hash so the writer
   * updates it, conditionally on the etag Google showed us (a newer edit gives 412, then a re-read).
   */
  rewrite(appointmentKey: string, observedEtag: string | null): void {
    this.db
      .prepare(
        `UPDATE google_links SET written_hash = NULL, etag = COALESCE(?, etag), next_attempt_ms = 0, updated_at_ms = ?
         WHERE appointment_key = ? AND present = 1`,
      )
      .run(observedEtag, this.clock.now(), appointmentKey);
  }

  /**
   * After a reschedule the booking now agrees with what the person left in Google: the writer's
   * coming update may use the etag the person's edit produced (no 412 round trip). Only while the
   * writer has not written since, i.e. the link still holds the start the person moved from.
   */
  adoptEtag(appointmentKey: string, observedEtag: string | null, fromStart: number | null): void {
    if (observedEtag === null || fromStart === null) return;
    this.db
      .prepare('UPDATE google_links SET etag = ? WHERE appointment_key = ? AND present = 1 AND written_start_ms = ?')
      .run(observedEtag, appointmentKey, fromStart);
  }

  /** Our events that should exist in a calendar (a full re-list compares against these). */
  mirroredIn(calendarId: string): { appointmentKey: string; eventId: string }[] {
    return this.db
      .prepare('SELECT appointment_key AS appointmentKey, event_id AS eventId FROM google_links WHERE calendar_id = ? AND present = 1')
      .all(calendarId) as { appointmentKey: string; eventId: string }[];
  }

  /** The event was deleted in Google: the writer inserts it again (409 on the tombstone, revived). */
  recreate(appointmentKey: string): void {
    this.db
      .prepare(`UPDATE google_links SET present = 0, written_hash = NULL, etag = NULL, next_attempt_ms = 0, updated_at_ms = ? WHERE appointment_key = ?`)
      .run(this.clock.now(), appointmentKey);
  }
}
