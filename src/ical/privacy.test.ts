// The limited feed's scrubber on its own: contact details of any shape go, what a title is made of
// (names, codes, dates and times) stays.
import { describe, expect, it } from 'vitest';
import { withoutContactText } from './privacy.ts';
import { appointment } from '../../test/feeds/appointments.ts';

const a = appointment(7);

describe('withoutContactText', () => {
  it.each([
    ['an e-mail address', 'Ana · ana.souza+tag@clinic.example.com.br', 'Ana'],
    ['an address in angle brackets', 'Ana <ana@x.io>', 'Ana'],
    ['a mailto link', 'write to mailto:ana@x.io now', 'write to now'],
    ['an internal user name', 'owner dr.ines@clinic', 'owner'],
    ['a Brazilian mobile number', 'Ana +55 (11) 98765-4321', 'Ana'],
    ['a number in brackets', 'Ana ((11) 98765-4321)', 'Ana'],
    ['a CPF', 'CPF 123.456.789-09 ok', 'CPF ok'],
    ['a CNPJ', 'CNPJ 12.345.678/0001-90', 'CNPJ'],
    ['bare digits', 'RG 123456789', 'RG'],
    ["the person's own document number, whatever its shape", `Doc ${a.person.documentNumber}`, 'Doc'],
    ["the person's own e-mail, even without a dot", `${a.person.email}`, ''],
  ])('removes %s', (_what, text, expected) => {
    expect(withoutContactText(text, a)).toBe(expected);
  });

  it.each([
    ['a name with accents and emoji', 'José Conceição Ñúñez 🦷'],
    ['a five-digit booking code', 'AG00042'],
    ['a date and time from {start}', '2026-06-16 12:00'],
    ['a time range', 'Limpeza 09:30-10:30'],
    ['a short number', 'Sala 12'],
    ['several lines', 'Services: Limpeza\nCalendar: Clínica'],
  ])('keeps %s', (_what, text) => {
    expect(withoutContactText(text, a)).toBe(text);
  });
});
