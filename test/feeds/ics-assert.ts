// The gate every rendered feed passes in these tests: Mozilla's ical.js parses it (it throws on
// structural errors), plus what ical.js does not check: CRLF only, a final CRLF, lines of at most
// 75 octets, a UID and a UTC DTSTAMP on every event, unique UIDs.
import ICAL from 'ical.js';
import { expect } from 'vitest';

export interface ParsedEvent {
  uid: string;
  sequence: number;
  status: string | null;
  summary: string;
  description: string | null;
  lastModified: string;
  dtstamp: string;
  start: string;
  end: string;
}

export function unfold(text: string): string {
  return text.replace(/\r\n[ \t]/g, '');
}

/** Strict checks, then the events as plain values. */
export function checkFeed(text: string): ParsedEvent[] {
  expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  // No code point is split across a fold (a lone surrogate would mean one was).
  expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);

  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((v): ParsedEvent => {
    const text = (name: string) => {
      const value = v.getFirstPropertyValue(name);
      return value === null || value === undefined ? null : String(value);
    };
    return {
      uid: text('uid') ?? '',
      sequence: Number(v.getFirstPropertyValue('sequence')),
      status: text('status'),
      summary: text('summary') ?? '',
      description: text('description'),
      lastModified: text('last-modified') ?? '',
      dtstamp: text('dtstamp') ?? '',
      start: text('dtstart') ?? '',
      end: text('dtend') ?? '',
    };
  });
  const raw = unfold(text);
  const eventBlocks = raw.split('BEGIN:VEVENT').slice(1);
  expect(eventBlocks.length).toBe(events.length);
  for (const block of eventBlocks) {
    expect(block).toMatch(/\r\nUID:[^\r\n]+@calbridge\r\n/);
    expect(block).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(block).not.toMatch(/TZID/);
  }
  expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  return events;
}
