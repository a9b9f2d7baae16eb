// Whether this process can write its database (and the schema is the one it was built for), for
// /readyz and the status page: the wiring builds one and hands it to both. Checked by a real write,
// but at most every `everyMs`: /readyz is public and may be asked a thousand times a second, so a
// write per call would be a denial of service.
import type { Db } from './db.ts';
import { latestSchemaVersion, schemaVersion } from './db.ts';

const EVERY_MS = 10_000;

export class WriteCheck {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private last: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly everyMs = EVERY_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Why the database cannot take our writes, or undefined; at most `everyMs` old. */
  problem(): string | undefined {
    const now = this.now();
    if (now - this.checkedAt < this.everyMs) return this.last;
    this.checkedAt = now;
    this.last = this.probe();
    return this.last;
  }

  private probe(): string | undefined {
    try {
      const version = schemaVersion(this.db);
      const latest = latestSchemaVersion();
      if (version !== latest) {
        return `the database is at schema version ${version} but this calbridge runs version ${latest} (a newer release migrated it); run that release`;
      }
      this.db
        .prepare(`INSERT INTO kv (key, value, updated_at_ms) VALUES ('readyz', '0', 0) ON CONFLICT (key) DO UPDATE SET updated_at_ms = 0`)
        .run();
      return undefined;
    } catch (e) {
      return `the database is not writable: ${(e as Error).message}`;
    }
  }
}
