import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { assembleFeed, renderHeader } from '../../src/feeds/assemble.ts';

describe('the calendar name of a feed', () => {
  it('is escaped as RFC 5545 text, so commas, semicolons, backslashes and line breaks survive a strict parse', () => {
    const name = 'Clínica São João, sala 2; manhã \\ tarde\nsegunda linha';
    const { body } = assembleFeed(renderHeader({ name, refresh_minutes: 15 }), []);
    const text = body.toString('utf8');
    expect(text).toContain('NAME:Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha\r\n');
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // no bare line break inside a content line
    const calendar = new ICAL.Component(ICAL.parse(text));
    // ical.js keeps NAME and X-WR-CALNAME untyped (raw): both carry the escaped text, unfolded intact.
    expect(calendar.getFirstPropertyValue('name')).toBe('Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha');
    expect(text).toContain('X-WR-CALNAME:Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha\r\n');
  });
});
