// What the language tests scan for in what a person reads: English words (on a Portuguese page, in
// a Portuguese event) and raw codes or keys (in any language).
import { STATUSES } from '../../src/core/appointment.ts';

/** Words of the English catalogue a Portuguese page must not show (names and codes people give are not among them). */
export const ENGLISH =
  /\b(the|and|of|to|is|are|for|from|at|on|with|not|yes|all|well|problems?|appointments?|booked|moved|back|cancelled|confirmed|pending|payment|services|professional|client|today|tomorrow|time|shown|subscribe|recent|activity|nothing|details|errors|this|page|refreshes|every|seconds|last|poll|events?|ready|served|times|scan|open|device|sign|needs?|attention|answered|booking)\b/i;
/** Config keys a sentence names (booking.base_url) are the same in every language. */
export const KEYS = /\b[a-z_]+(?:\.[a-z_]+)+\b/g;
/** A booking status code, or a key (the UUIDs the booking service gives). */
export const RAW = new RegExp(`\\b(${STATUSES.join('|')})\\b|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-`);
