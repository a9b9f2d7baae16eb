// Status sections as a test wants them: valid by the schema (status/status-document.ts), with only
// the fields a test is about given.
import type { IngestSection, StatusDocument, TargetSection } from '../../src/status/status-document.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends (infer E)[] ? E[] : T[K] extends object | null ? DeepPartial<T[K]> | T[K] : T[K] };

function merge<T>(base: T, over: DeepPartial<T> | undefined): T {
  if (!over) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? merge(b, v as DeepPartial<typeof b>)
        : v;
  }
  return out as T;
}

export function ingestFixture(over?: DeepPartial<IngestSection>): IngestSection {
  return merge<IngestSection>(
    {
      appointments: { total: 42, active: 40, done: 2, cancelled: 0, gone: 0 },
      deliveries: { pending: 0, retrying: 0, failed: 0, applied: 10, oldest_pending_at: null, last_errors: [] },
      webhook_rejections: { by_reason: {}, recent: [] },
      poll: { schedule: '*/5 * * * *', last: null, last_success_at: null, unannounced_changes_total: 0 },
      deletion_breaker: { max_gone_per_hour: 20, gone_last_hour: 0, held: 0, held_appointments: [] },
      booking_api: { last_ok_at: null, last_error: null },
    },
    over,
  );
}

export function targetFixture(kind: string, over?: DeepPartial<TargetSection>): TargetSection {
  return merge<TargetSection>(
    {
      enabled: true,
      kind,
      account: `${kind}.default`,
      calendars: ['primary'],
      auth: { ok: true, error: null },
      mirrored: 0,
      pending: 0,
      failed: 0,
      failures: [],
      last_pass_at: null,
      last_success_at: null,
      last_error: null,
      breaker: null,
      requests_per_minute: 500,
      reverse_sync: { enabled: false },
    },
    over,
  );
}

/** A whole document around the given sections. */
export function statusFixture(over: Partial<StatusDocument> = {}): StatusDocument {
  return { version: '0.1.0', now: '2026-06-15T12:00:00.000Z', targets: {}, ...over };
}
