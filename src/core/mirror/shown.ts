// What a person sees of an event, compared with what the writer would write. One rule for every
// target (docs/reference/behaviour.md, "Moves made in a calendar"): an event that already shows what the
// writer would write is adopted, never written again; of a person's change only the start can flow
// back to the booking service (it takes a new start, nothing else), so anything else a person
// changed (the length, a title, a description, the status, an all-day or repeating event) is put
// back to the booking's. Pure.

/** An event as a target shows it (target.ts, TargetEvent): the parts a person sees. */
export interface ShownEvent {
  deleted: boolean;
  start: number | null;
  end: number | null;
  title?: string | null;
  description?: string | null;
  status?: string | null;
}

/** What an event shows besides its times, as a calendar app presents it. */
export interface Looks {
  title: string;
  description: string;
  /** confirmed | tentative, lower case. */
  status: string;
}

/** What the writer wants the event to show. */
export interface WantedShown {
  start: number;
  end: number;
  looks: Looks;
}

/** What a person can change and the booking service cannot take. */
export type Unreturnable = 'not-a-time' | 'length' | 'title' | 'description' | 'status';

// Apps and servers re-fold text and line ends; a person sees the same words.
const text = (s: string): string => s.replace(/\r\n?/g, '\n').trim();

/**
 * How the event differs from what is wanted, in what the booking service cannot take (a start of
 * its own is not among them: that is a move). A field the target did not report is not compared.
 */
export function unreturnable(event: ShownEvent, wanted: WantedShown): Unreturnable[] {
  if (event.start === null || event.end === null) return ['not-a-time'];
  const out: Unreturnable[] = [];
  if (event.end - event.start !== wanted.end - wanted.start) out.push('length');
  if (typeof event.title === 'string' && text(event.title) !== text(wanted.looks.title)) out.push('title');
  if (typeof event.description === 'string' && text(event.description) !== text(wanted.looks.description)) out.push('description');
  if (typeof event.status === 'string' && event.status.toLowerCase() !== wanted.looks.status.toLowerCase()) out.push('status');
  return out;
}

/** The event already shows what the writer would write: times, title, description and status. */
export function showsWanted(event: ShownEvent, wanted: WantedShown): boolean {
  return !event.deleted && event.start === wanted.start && unreturnable(event, wanted).length === 0;
}
