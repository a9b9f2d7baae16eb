// Google push channels (events.watch), one live per calendar of each account. A channel is stored
// before the watch call, so Google's first "sync" message already finds it. A store sees its own
// account's channels (`google.default`); looking one up by id finds any account's.
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

export type ChannelState = 'opening' | 'active' | 'stopped';

export interface StoredChannel {
  id: string;
  calendarId: string;
  resourceId: string | null;
  token: string;
  address: string;
  expiration: number;
  state: ChannelState;
  createdAt: number;
  /** Whose channel it is: `google.default`, `google.ana`. */
  account: string;
}

interface Row {
  id: string;
  calendar_id: string;
  resource_id: string | null;
  token: string;
  address: string;
  expiration_ms: number;
  state: ChannelState;
  created_at_ms: number;
  account: string;
}

const fromRow = (r: Row): StoredChannel => ({
  id: r.id,
  calendarId: r.calendar_id,
  resourceId: r.resource_id,
  token: r.token,
  address: r.address,
  expiration: r.expiration_ms,
  state: r.state,
  createdAt: r.created_at_ms,
  account: r.account,
});

export class ChannelStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly account = 'google.default',
  ) {}

  get(id: string): StoredChannel | undefined {
    const row = this.db.prepare('SELECT * FROM google_channels WHERE id = ?').get(id) as Row | undefined;
    return row && fromRow(row);
  }

  /** This account's channels not stopped, newest first. */
  live(): StoredChannel[] {
    return (
      this.db
        .prepare(`SELECT * FROM google_channels WHERE account = ? AND state != 'stopped' ORDER BY created_at_ms DESC, id`)
        .all(this.account) as Row[]
    ).map(fromRow);
  }

  opening(c: { id: string; calendarId: string; token: string; address: string; expiration: number }): void {
    const now = this.clock.now();
    this.db
      .prepare(
        `INSERT INTO google_channels (id, calendar_id, token, address, expiration_ms, state, created_at_ms, updated_at_ms, account)
         VALUES (?, ?, ?, ?, ?, 'opening', ?, ?, ?)`,
      )
      .run(c.id, c.calendarId, c.token, c.address, c.expiration, now, now, this.account);
  }

  activate(id: string, resourceId: string, expiration: number): void {
    this.db
      .prepare(`UPDATE google_channels SET state = 'active', resource_id = ?, expiration_ms = ?, updated_at_ms = ? WHERE id = ?`)
      .run(resourceId, expiration, this.clock.now(), id);
  }

  markStopped(id: string): void {
    this.db.prepare(`UPDATE google_channels SET state = 'stopped', updated_at_ms = ? WHERE id = ?`).run(this.clock.now(), id);
  }

  /** Drops rows of channels that are stopped and expired anyway. */
  prune(): void {
    this.db.prepare(`DELETE FROM google_channels WHERE state = 'stopped' AND expiration_ms < ?`).run(this.clock.now());
  }

  activeCount(): number {
    const row = this.db
      .prepare(`SELECT COUNT(*) AS n FROM google_channels WHERE account = ? AND state = 'active' AND expiration_ms > ?`)
      .get(this.account, this.clock.now()) as { n: number };
    return row.n;
  }
}
