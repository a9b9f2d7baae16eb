// How we recognise our own work in what a target shows (ARCHITECTURE.md, principle 5: echoes are not news).
import type { LinkState } from './link.ts';
import { showsWanted, type Looks } from './shown.ts';
import type { TargetEvent } from './target.ts';

/** The facts of what the writer wants, whatever body a target takes. */
export interface WantedFacts {
  hash: string;
  start: number;
  end: number;
  looks: Looks;
}

/** The event is in the very state of our last write (or an edit we adopted): its etag is ours. */
export function isEcho(event: Pick<TargetEvent, 'etag'>, link: Pick<LinkState, 'etag'>): boolean {
  return event.etag !== null && event.etag === link.etag;
}

/**
 * The event is our own write of what we want now: a write whose answer was lost, or a crash before
 * it was recorded. Our hash alone is not enough (it survives a person's move), so the times agree too.
 */
export function showsOurWrite(event: TargetEvent, wanted: WantedFacts): boolean {
  return !event.deleted && event.ourHash === wanted.hash && event.start === wanted.start && event.end === wanted.end;
}

/**
 * The event shows what the writer wants, whoever wrote it last: our own write, or a person's edit
 * the booking service took (a move it accepted), whose private hash is from an older write of
 * ours. Writing it again would change nothing a person sees; it is adopted instead.
 */
export function showsWhatWeWant(event: TargetEvent, wanted: WantedFacts): boolean {
  return showsOurWrite(event, wanted) || showsWanted(event, wanted);
}
