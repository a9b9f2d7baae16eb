// What a webhook body must be to count as a notification, table by table.
import { describe, expect, it } from 'vitest';
import { checkNotification } from './notification.ts';

describe('checkNotification', () => {
  it.each([
    [
      'the seed envelope',
      { event: 'appointment.created', timestamp: 'x', data: { appointment_key: 'k1' } },
      { ok: true, appointmentKey: 'k1', event: 'appointment.created' },
    ],
    [
      'an upper-case event',
      { event: 'CANCELED', data: { appointment_key: 'k1' } },
      { ok: true, appointmentKey: 'k1', event: 'appointment.canceled' },
    ],
    ['DELETED', { event: 'DELETED', data: { appointment_key: 'k1' } }, { ok: true, appointmentKey: 'k1', event: 'appointment.deleted' }],
    [
      'an unknown event, kept',
      { event: 'appointment.moved', data: { appointment_key: 'k1' } },
      { ok: true, appointmentKey: 'k1', event: 'appointment.moved' },
    ],
    ['a bare record', { appointment_key: '6f1c-22', status: 'CONFIRMED' }, { ok: true, appointmentKey: '6f1c-22', event: null }],
    ['a numeric key, as text', { appointment_key: 12345 }, { ok: true, appointmentKey: '12345', event: null }],
  ])('accepts %s', (_n, body, expected) => {
    expect(checkNotification(body)).toEqual(expected);
  });

  it.each([
    ['an array', [{ appointment_key: 'k' }], 'the body is a JSON array, not a notification'],
    ['null', null, 'the body is not a JSON object'],
    ['a string', 'k1', 'the body is not a JSON object'],
    ['an envelope without event', { data: { appointment_key: 'k' } }, 'the envelope has no event'],
    ['an envelope with a blank event', { event: ' ', data: { appointment_key: 'k' } }, 'the envelope has no event'],
    ['an envelope whose data is a list', { event: 'CREATED', data: [] }, 'the envelope has no data object'],
    ['an envelope without key', { event: 'CREATED', data: { status: 'X' } }, 'data has no appointment_key'],
    ['a key that is not text or a number', { appointment_key: true }, 'the record has no appointment_key'],
    [
      'a key with a slash',
      { appointment_key: 'a/b' },
      'the record has an unusable appointment_key "a/b": it contains a slash or backslash',
    ],
    ['a key of dots', { appointment_key: '..' }, 'the record has an unusable appointment_key "..": it is a dot path segment'],
    [
      'a key with CR/LF',
      { event: 'CREATED', data: { appointment_key: 'k\r\nX-INJECT:1' } },
      'data has an unusable appointment_key "k\\r\\nX-INJECT:1": it contains a control character',
    ],
    ['a key with a space', { appointment_key: 'a b' }, 'the record has an unusable appointment_key "a b": it contains whitespace'],
    [
      'an overlong key',
      { appointment_key: 'a'.repeat(201) },
      `the record has an unusable appointment_key "${'a'.repeat(60)}": it is longer than 200 characters`,
    ],
  ])('refuses %s', (_n, body, reason) => {
    expect(checkNotification(body)).toEqual({ ok: false, reason });
  });
});
