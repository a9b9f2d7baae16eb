// Document numbers (CPF, passport, ...) and phone numbers in text calbridge did not write itself:
// the booking service's refusal reasons and the errors of the services it calls. They are kept and
// shown (activity, status), so such numbers are masked there. Pure.

/**
 * A run of digits with the separators people write in them (". - / " and spaces), standing on its
 * own: a key like AG00012 or the digits inside a UUID are left alone, as are dates and times.
 */
const RUN = /(?<![\w.\-/])\d[\d.\-/ ]*\d(?![\w\-/])/g;
const MIN_DIGITS = 9;

/** "CPF 123.456.789-09 bloqueado" → "CPF ••• bloqueado". */
export function maskLongNumbers(text: string): string {
  return text.replace(RUN, (m) => (m.replace(/\D/g, '').length >= MIN_DIGITS ? '•••' : m));
}
