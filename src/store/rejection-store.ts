// Rejected webhook bodies from authenticated callers: counted by reason, the latest few kept
// (truncated) so a person can see what the sender actually posts.
import type { Db } from './db.ts';
import { atomicOf } from './atomic.ts';

export interface Rejection {
  reason: string;
  status: number;
  detail: string;
  contentType: string | null;
  sample: string | null;
  at: number;
}

const SAMPLE_CHARS = 2048;

export class RejectionStore {
  constructor(
    private readonly db: Db,
    private readonly keep = 20,
  ) {}

  record(r: Rejection): void {
    atomicOf(this.db)(() => {
      this.db
        .prepare(
          `INSERT INTO webhook_rejection_counts (reason, count, last_at_ms) VALUES (?, 1, ?)
           ON CONFLICT (reason) DO UPDATE SET count = count + 1, last_at_ms = excluded.last_at_ms`,
        )
        .run(r.reason, r.at);
      this.db
        .prepare(
          `INSERT INTO webhook_rejection_samples (reason, status, detail, content_type, sample, received_at_ms) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(r.reason, r.status, r.detail, r.contentType, r.sample === null ? null : r.sample.slice(0, SAMPLE_CHARS), r.at);
      this.db
        .prepare('DELETE FROM webhook_rejection_samples WHERE id <= (SELECT MAX(id) FROM webhook_rejection_samples) - ?')
        .run(this.keep);
    });
  }

  counts(): Record<string, number> {
    const rows = this.db.prepare('SELECT reason, count FROM webhook_rejection_counts ORDER BY reason').all() as {
      reason: string;
      count: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.reason, r.count]));
  }

  recent(limit = 5): Rejection[] {
    const rows = this.db
      .prepare(
        'SELECT reason, status, detail, content_type, sample, received_at_ms FROM webhook_rejection_samples ORDER BY id DESC LIMIT ?',
      )
      .all(limit) as {
      reason: string;
      status: number;
      detail: string;
      content_type: string | null;
      sample: string | null;
      received_at_ms: number;
    }[];
    return rows.map((r) => ({
      reason: r.reason,
      status: r.status,
      detail: r.detail,
      contentType: r.content_type,
      sample: r.sample,
      at: r.received_at_ms,
    }));
  }
}
