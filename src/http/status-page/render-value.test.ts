import { describe, expect, it } from 'vitest';
import { collectProblems, hasContent, humanise, isErrorKey, renderValue } from './render-value.ts';
import { ingestSection, retentionSection } from '../../status/status-document.ts';

// The page's moment: now, and the business's zone its times are shown in.
const at = { now: Date.UTC(2026, 5, 15, 12, 0, 0), zone: 'America/Sao_Paulo' };

describe('humanise', () => {
  it.each([
    ['last_error', 'Last error'],
    ['lastError', 'Last error'],
    ['pending-writes', 'Pending writes'],
    ['api_calls', 'API calls'],
    ['feed_urls', 'Feed URLs'],
    ['google', 'Google'],
    ['caldav', 'CalDAV'],
  ])('%s reads "%s"', (key, expected) => expect(humanise(key)).toBe(expected));
});

describe('what counts as an error', () => {
  it.each([
    ['last_error', 'HTTP 500', true],
    ['lastError', { message: 'quota', at: '2026-06-15T11:00:00Z' }, true],
    ['errors', ['a'], true],
    ['failed', 3, true],
    ['failed', 0, false],
    ['errors', [], false],
    ['last_error', null, false],
    ['last_error', '', false],
    ['errors', { google: 0, booking: 0 }, false],
    ['pending', 3, false],
  ])('%s = %j is an error: %s', (key, value, expected) => {
    expect(isErrorKey(key) && hasContent(value)).toBe(expected);
  });

  it('collects every error with its path, wherever it sits', () => {
    const problems = collectProblems({
      ingest: { last_error: 'the booking service answered 500', failed: 0 },
      google: {
        calendars: [
          { id: 'primary', lastError: 'quota exceeded' },
          { id: 'other', lastError: null },
        ],
      },
      feeds: { count: 2 },
    });
    expect(problems).toEqual([
      { path: ['ingest', 'last_error'], value: 'the booking service answered 500' },
      { path: ['google', 'calendars', '#1', 'lastError'], value: 'quota exceeded' },
    ]);
  });
});

describe('renderValue', () => {
  it('shows an array of objects as a table with every key as a column', () => {
    const out = renderValue(
      'deliveries',
      [
        { key: 'a1', status: 'done' },
        { key: 'a2', failed: 2 },
      ],
      at,
    ).value;
    expect(out).toContain('<th>Key</th><th>Status</th><th>Failed</th>');
    // Each cell labelled with its column: on a phone the row becomes a card (style.ts).
    expect(out).toContain('<td data-label="Failed" class="error"><span class="text">2</span></td>');
  });

  it('shows a time the schema calls an instant relative to now, keeping the exact time at hand', () => {
    const out = renderValue('last_run_at', '2026-06-15T11:57:00.000Z', at, 0, retentionSection.shape.last_run_at).value;
    expect(out).toContain('3 min ago');
    expect(out).toContain('datetime="2026-06-15T11:57:00.000Z"');
    expect(out).toContain('2026-06-15 08:57:00'); // in the business's zone
  });

  it('finds the instants inside a section by its schema, and leaves a time-like text the schema calls text alone', () => {
    const section = {
      kept_days: { processed_deliveries: 7, webhook_announcements: 7, settled_reverse_actions: 30 },
      last_run_at: '2026-06-15T11:57:00.000Z',
      last_deleted: null,
    };
    expect(renderValue('retention', section, at, 0, retentionSection).value).toContain('3 min ago');
    // The same text under a key the schema does not call a time (or with no schema) is shown as it is.
    expect(renderValue('last_run_at', '2026-06-15T11:57:00.000Z', at).value).toBe('<span class="text">2026-06-15T11:57:00.000Z</span>');
    const poll = { schedule: '*/5 * * * *', last: null, last_success_at: '2026-06-15T11:57:00.000Z', unannounced_changes_total: 0 };
    expect(
      renderValue('poll', { ...poll, schedule: '2026-06-15T11:57:00.000Z' }, at, 0, ingestSection.shape.poll).value.match(/3 min ago/g),
    ).toHaveLength(1);
  });

  it('escapes text from anywhere in the document', () => {
    const out = renderValue('x', { name: '<script>alert(1)</script>', rows: [{ '<b>': '"&' }] }, at).value;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<b>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&quot;&amp;');
  });

  it('shows booleans, nulls and empty lists in words', () => {
    expect(renderValue('enabled', true, at).value).toBe('yes');
    expect(renderValue('enabled', false, at).value).toBe('no');
    expect(renderValue('last_error', null, at).value).toContain('&mdash;'); // shown as —;
    expect(renderValue('errors', [], at).value).toContain('none');
  });
});
