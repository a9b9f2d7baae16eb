// A delete that finds the event already gone is a wasted write only when calbridge could have known.
// A person deleted the event, and no read of that calendar answered between their deletion and our
// delete (no listing, no read of that event): no round had shown the deletion, and the delete,
// answered "gone", is how calbridge learns of it, at the cost a read would have had. Such a delete
// is counted on its own (the soak's summary gives the number), not as a write after agreement. Once
// a listing or a read answered after the deletion, calbridge knew, and a delete is wasted. One rule
// for Google, CalDAV and Outlook; each side says what in its call log is a read and an event's id.

export class PersonDeletions<C> {
  /** Per event id: the length of the side's call log when a person deleted it (the latest time). */
  private readonly at = new Map<string, number>();

  constructor(
    private readonly log: readonly C[],
    /** A call that showed calbridge the calendar as it is, or this event (answered, not failed). */
    private readonly shows: (call: C, eventId: string) => boolean,
  ) {}

  /** A person deleted the event with this id, now. */
  note(eventId: string): void {
    this.at.set(eventId, this.log.length);
  }

  /** The delete at log position `i`, answered "gone", learned of a person's deletion no read had shown. */
  learned(i: number, eventId: string): boolean {
    const deletedAt = this.at.get(eventId);
    if (deletedAt === undefined || deletedAt > i) return false;
    return !this.log.slice(deletedAt, i).some((c) => this.shows(c, eventId));
  }
}

/** Writes since `from`, in words: the wasted ones, and the deletes that learned of a person's deletion. */
export interface WritesSince {
  wasted: string[];
  learned: number;
}

/** Splits the writes among `log[from..]` by the rule above; `gone` says whether a call is a delete answered "gone". */
export function writesSince<C>(
  log: readonly C[],
  from: number,
  isWrite: (c: C) => boolean,
  gone: (c: C) => string | null,
  deletions: PersonDeletions<C>,
  words: (c: C) => string,
): WritesSince {
  const out: WritesSince = { wasted: [], learned: 0 };
  for (let i = from; i < log.length; i++) {
    const c = log[i]!;
    if (!isWrite(c)) continue;
    const id = gone(c);
    if (id !== null && deletions.learned(i, id)) out.learned++;
    else out.wasted.push(words(c));
  }
  return out;
}
