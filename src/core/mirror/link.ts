// What we last wrote to a target for one appointment (a link), as the mirror core decides from it.

export interface LinkState {
  calendarId: string;
  eventId: string;
  /** The id generation (a target that refuses to revive a deleted id gets the next one). */
  generation: number;
  /** false after a delete: the link stays, so a later create knows the id generation. */
  present: boolean;
  writtenHash: string | null;
  /** The etag of our last write (or of a person's edit we adopted). */
  etag: string | null;
  writtenStart: number | null;
  writtenEnd: number | null;
  /**
   * A write was sent and its outcome never recorded (the process died waiting for the answer): the
   * target may hold it (an insert that landed, a delete that went through) whatever the link says.
   */
  writeInFlight: boolean;
  /** The state of the event the writer is leaving to the reverse sync, and since when. */
  deferral: Deferral | null;
  /** Last time the writer (or a request of the reverse sync) changed the link. */
  updatedAt: number;
}

/** One state (etag) of an event a person changed, left to the reverse sync from `since`. */
export interface Deferral {
  etag: string | null;
  since: number;
}
