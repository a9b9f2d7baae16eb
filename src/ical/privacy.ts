// Privacy enforced on what a feed is about to show, not only on the fields known to carry contact
// details: a template may reach an e-mail through {owner_user}, a name or a calendar name, so the
// rendered text of a `limited` feed is scrubbed of anything shaped like an e-mail address, a phone
// number or a document number, and of the person's own details wherever they appear. Pure.
import type { Appointment } from '../core/appointment.ts';

// Anything around an @ up to the characters that end an address in running text.
const EMAIL = /[^\s<>()[\]{}"',;@]+@[^\s<>()[\]{}"',;@]+/g;
// Seven or more digits, with the separators phone and document numbers are written with
// ("+55 (11) 98765-4321", "123.456.789-09", "12.345.678/0001-90"). Five-digit codes stay.
const DIGIT_RUN = /[+(]?\d(?:[\s().\-/]*\d){6,}/g;
// Dates and times ({start}, {end}) are digit runs too but no one's phone: they are left alone.
const DATE_TIME = /(\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2})?\b)/;

/** The text without e-mail addresses, phone numbers, document numbers and the person's own contact details. */
export function withoutContactText(text: string, a: Appointment): string {
  let out = text;
  for (const own of [a.person.email, a.person.phone, a.person.documentNumber]) {
    if (own && own.trim().length >= 3) out = out.split(own).join('');
  }
  out = out
    .split(DATE_TIME)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(EMAIL, '').replace(DIGIT_RUN, '')))
    .join('');
  return tidy(out);
}

// A separator left dangling at either end of a line once what it separated is gone ("Ana · ").
// Escaped, not typed: one character beyond Latin-1 in the bundle makes V8 hold the whole chunk's
// source in two bytes a character (BENCHMARKS.md, "Footprint").
const LEADING = /^(?:\s*[\u00b7|,;:\-\u2013\u2014/])+\s*/u;
const TRAILING = /(?:\s*[\u00b7|,;:\-\u2013\u2014/])+\s*$/u;
// Brackets with nothing but separators left inside ("Ana (, )").
const EMPTIED_BRACKETS = /\s*[([<]\s*(?:[,;·|/-]\s*)*[)\]>]/gu;

/** What removing leaves behind: doubled spaces, dangling separators, empty lines. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(EMPTIED_BRACKETS, '')
        .replace(/[ \t]{2,}/g, ' ')
        .replace(LEADING, '')
        .replace(TRAILING, '')
        .trim(),
    )
    .filter((line) => line !== '')
    .join('\n');
}
