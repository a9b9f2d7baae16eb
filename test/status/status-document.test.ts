// The status document: what a real runtime serves fits its one schema, with snake_case keys only,
// and docs/status.schema.json is that schema as generated now.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { statusJsonSchemaText } from '../../scripts/status-schema.ts';
import { statusDocument } from '../../src/status/status-document.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';

const committed = readFileSync('docs/status.schema.json', 'utf8');

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Every key of a JSON value, with its path. */
function keys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${path}.${k}`, ...keys(v, `${path}.${k}`)]);
}

function everythingOn(): TestContext {
  return createTestContext({
    config: testConfig({
      google: { credentials: { client_id: 'c', client_secret: 's', refresh_token: 'r' } },
      caldav: {
        url: 'https://dav.example.com/',
        username: 'ana',
        password: 'app-password-123',
        calendars: [{ calendar_key: '*', calendar: 'Clinic' }],
      },
      feeds: [{ name: 'Clinic', token: 'feed-token-0123456789abcdef' }],
    }),
  });
}

describe('the status document', () => {
  it('docs/status.schema.json is what the zod schema generates now', () => {
    expect(statusJsonSchemaText() === committed, 'docs/status.schema.json is stale: run npm run status-schema and commit the result').toBe(
      true,
    );
  });

  it('a runtime with every part on serves a document its schema and the published JSON Schema accept, with snake_case keys only', () => {
    t = everythingOn();
    const a = testAppointment();
    t.ctx.appointments.upsert(a);
    // A write that failed, so the failures list has a row to check.
    t.ctx
      .targetStores('google.default')
      .links.recordFailure(
        a.key,
        { calendarId: 'primary', eventId: 'e1', generation: 0 },
        'Google answered 500',
        Date.UTC(2026, 5, 15, 12, 5),
        null,
      );
    const doc = t.runtime.status();

    const parsed = statusDocument.safeParse(doc);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(Object.keys(doc.targets)).toEqual(['google.default', 'caldav.default']);
    expect(doc.targets['google.default']).toMatchObject({
      kind: 'google',
      failed: 1,
      failures: [{ appointment_key: a.key, next_attempt_at: '2026-06-15T12:05:00.000Z' }],
    });
    expect(keys(doc).filter((k) => /[A-Z]/.test(k.split('.').at(-1)!))).toEqual([]);

    const published = z.fromJSONSchema(JSON.parse(committed) as Parameters<typeof z.fromJSONSchema>[0]);
    expect(published.safeParse(JSON.parse(JSON.stringify(doc))).error?.issues ?? []).toEqual([]);
  });

  it('refuses a document whose time is not an ISO instant, or with a key the schema does not know', () => {
    t = everythingOn();
    const doc = t.runtime.status();
    expect(statusDocument.safeParse({ ...doc, now: 'yesterday' }).success).toBe(false);
    expect(
      statusDocument.safeParse({ ...doc, targets: { 'google.default': { ...doc.targets['google.default'], lastPassAt: null } } }).success,
    ).toBe(false);
  });
});
