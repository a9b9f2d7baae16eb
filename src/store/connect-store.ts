// Invites and connected accounts (docs/reference/http.md, "Connect"; migration 023). An invite is
// kept by the hash of its link's secret, so a copy of the database opens no sign-in; every credential
// here (PKCE verifier, refresh token, CalDAV password) is sealed under server.secret_key
// (core/seal.ts), each bound to its row, and a wrong or missing key is one clear error.
import { randomBytes } from 'node:crypto';
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';
import { sha256Hex } from '../core/hash.ts';
import { UserError } from '../core/errors.ts';
import { WrongKeyError, type Sealer } from '../core/seal.ts';
import { atomicOf, type Atomic } from './atomic.ts';

export type ConnectKind = 'google' | 'microsoft' | 'caldav';

export interface Invite {
  /** The hash of the link's secret: how the invite is named inside calbridge. */
  id: string;
  kind: ConnectKind;
  calendarKey: string;
  name: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface Connection {
  kind: ConnectKind;
  name: string;
  calendarKey: string;
  /** The calendar's id (Google, Microsoft) or collection URL (CalDAV). */
  calendar: string;
  /** How the person's calendar app names it, for lists. */
  calendarName: string;
  createdAt: number;
}

interface InviteRow {
  id_hash: string;
  kind: ConnectKind;
  calendar_key: string;
  name: string;
  created_at_ms: number;
  expires_at_ms: number;
  used_at_ms: number | null;
}

interface ConnectionRow {
  kind: ConnectKind;
  name: string;
  calendar_key: string;
  calendar: string;
  calendar_name: string;
  created_at_ms: number;
}

const WRONG_KEY =
  'the stored connections were encrypted with another server.secret_key: put back the key they were made with, or remove them (`calbridge connections remove NAME`) and connect them again';
const NO_KEY =
  'the database holds connected calendars but server.secret_key is not set: set it to the key they were made with, or remove them (`calbridge connections remove NAME`)';

const inviteOf = (r: InviteRow): Invite => ({
  id: r.id_hash,
  kind: r.kind,
  calendarKey: r.calendar_key,
  name: r.name,
  createdAt: r.created_at_ms,
  expiresAt: r.expires_at_ms,
  usedAt: r.used_at_ms,
});

const connectionOf = (r: ConnectionRow): Connection => ({
  kind: r.kind,
  name: r.name,
  calendarKey: r.calendar_key,
  calendar: r.calendar,
  calendarName: r.calendar_name,
  createdAt: r.created_at_ms,
});

/** The secret part of an invite link: 256 random bits. */
const newSecret = () => randomBytes(32).toString('base64url');

export class ConnectStore {
  private readonly atomic: Atomic;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Undefined without server.secret_key: reading or storing a credential is then a clear error. */
    private readonly sealer: Sealer | undefined,
  ) {
    this.atomic = atomicOf(db);
  }

  private seal(value: string, context: string): Buffer {
    if (!this.sealer) throw new UserError('server.secret_key is not set: it is required to store connected calendars');
    return this.sealer.seal(value, context);
  }

  private open(sealed: Buffer, context: string): string {
    if (!this.sealer) throw new UserError(NO_KEY);
    try {
      return this.sealer.open(sealed, context);
    } catch (e) {
      if (e instanceof WrongKeyError) throw new UserError(WRONG_KEY, 1, { cause: e });
      throw new UserError(
        `the stored credentials of ${context} cannot be read (${(e as Error).message}); remove it and connect it again`,
        1,
        {
          cause: e,
        },
      );
    }
  }

  /** A new invite; returns the secret for its link (only its hash is kept). */
  createInvite(i: { kind: ConnectKind; calendarKey: string; name: string; expiresAt: number }): string {
    const secret = newSecret();
    this.db
      .prepare(`INSERT INTO connect_invites (id_hash, kind, calendar_key, name, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(sha256Hex(secret), i.kind, i.calendarKey, i.name, this.clock.now(), i.expiresAt);
    return secret;
  }

  /** The invite a link's secret opens, unless unknown, used or expired. */
  openInvite(secret: string): Invite | undefined {
    const row = this.db.prepare(`SELECT * FROM connect_invites WHERE id_hash = ?`).get(sha256Hex(secret)) as InviteRow | undefined;
    return row && this.live(row) ? inviteOf(row) : undefined;
  }

  /** The same by its id (the hash), for the form that follows a sign-in, which never sees the link. */
  inviteById(id: string): Invite | undefined {
    const row = this.db.prepare(`SELECT * FROM connect_invites WHERE id_hash = ?`).get(id) as InviteRow | undefined;
    return row && this.live(row) ? inviteOf(row) : undefined;
  }

  private live(row: InviteRow): boolean {
    return row.used_at_ms === null && row.expires_at_ms > this.clock.now();
  }

  /** Names that invites still open hold for this kind. */
  openInviteNames(kind: ConnectKind): string[] {
    const rows = this.db
      .prepare(`SELECT name FROM connect_invites WHERE kind = ? AND used_at_ms IS NULL AND expires_at_ms > ?`)
      .all(kind, this.clock.now()) as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** A sign-in starts: the state that comes back with it (kept hashed) and the PKCE verifier (sealed). A newer one replaces it. */
  beginSignIn(invite: Invite, state: string, verifier: string): void {
    this.db
      .prepare(`UPDATE connect_invites SET state_hash = ?, verifier = ? WHERE id_hash = ?`)
      .run(sha256Hex(state), this.seal(verifier, `invite ${invite.id}`), invite.id);
  }

  /**
   * The invite and verifier a returning state belongs to; the state is spent by this. 'spent': the
   * state was given for an invite used or expired since; undefined: no invite waits for this state.
   */
  takeSignIn(state: string): { invite: Invite; verifier: string } | 'spent' | undefined {
    return this.securely(() => this.atomicTake(state));
  }

  private atomicTake(state: string): { invite: Invite; verifier: string } | 'spent' | undefined {
    return this.atomic(() => {
      const row = this.db.prepare(`SELECT * FROM connect_invites WHERE state_hash = ?`).get(sha256Hex(state)) as
        | (InviteRow & { verifier: Buffer | null })
        | undefined;
      if (!row) return undefined;
      this.db.prepare(`UPDATE connect_invites SET state_hash = NULL, verifier = NULL WHERE id_hash = ?`).run(row.id_hash);
      // An expired invite's verifier is purged (purgeExpired) but its state hash kept: still "expired", not "unknown".
      if (!this.live(row)) return 'spent';
      if (!row.verifier) return undefined;
      return { invite: inviteOf(row), verifier: this.open(row.verifier, `invite ${row.id_hash}`) };
    });
  }

  /** What a sign-in found (credentials, calendars to pick from), sealed until the person confirms. */
  holdPending(invite: Invite, pending: string): void {
    this.db.prepare(`UPDATE connect_invites SET pending = ? WHERE id_hash = ?`).run(this.seal(pending, `pending ${invite.id}`), invite.id);
  }

  pending(invite: Invite): string | undefined {
    const row = this.db.prepare(`SELECT pending FROM connect_invites WHERE id_hash = ?`).get(invite.id) as
      | { pending: Buffer | null }
      | undefined;
    return row?.pending ? this.open(row.pending, `pending ${invite.id}`) : undefined;
  }

  /** The person confirmed: the account is stored and the invite spent, together. False if the invite was spent meanwhile. */
  confirm(invite: Invite, c: Omit<Connection, 'createdAt' | 'kind' | 'name' | 'calendarKey'>, secrets: string): boolean {
    return this.securely(() => this.atomicConfirm(invite, c, secrets));
  }

  private atomicConfirm(invite: Invite, c: Omit<Connection, 'createdAt' | 'kind' | 'name' | 'calendarKey'>, secrets: string): boolean {
    return this.atomic(() => {
      const spent = this.db
        .prepare(
          `UPDATE connect_invites SET used_at_ms = ?, pending = NULL, state_hash = NULL, verifier = NULL
           WHERE id_hash = ? AND used_at_ms IS NULL AND expires_at_ms > ?`,
        )
        .run(this.clock.now(), invite.id, this.clock.now());
      if (spent.changes !== 1) return false;
      this.db
        .prepare(
          `INSERT INTO connections (kind, name, calendar_key, calendar, calendar_name, sealed, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          invite.kind,
          invite.name,
          invite.calendarKey,
          c.calendar,
          c.calendarName,
          this.seal(secrets, `${invite.kind}.${invite.name}`),
          this.clock.now(),
        );
      return true;
    });
  }

  /**
   * Forgets the sealed sign-in data (PKCE verifier, what a sign-in found waiting for a choice) of up
   * to `limit` invites expired by `now`; returns how many. The state's hash stays, so a sign-in
   * coming back late is told the link expired. Overwritten, not just unlinked (secure_delete), and the
   * WAL emptied after, so the sealed bytes leave the file (docs/reference/behaviour.md, "Retention").
   */
  purgeExpired(now: number, limit: number): number {
    const purged = this.securely(
      () =>
        this.db
          .prepare(
            `UPDATE connect_invites SET verifier = NULL, pending = NULL WHERE rowid IN (
               SELECT rowid FROM connect_invites WHERE expires_at_ms <= ? AND (verifier IS NOT NULL OR pending IS NOT NULL) LIMIT ?)`,
          )
          .run(now, limit).changes,
    );
    if (purged > 0) this.emptyWal();
    return purged;
  }

  /** Deletes up to `limit` invites that expired before `before` (used or not); returns how many. */
  pruneInvites(before: number, limit: number): number {
    return this.securely(
      () =>
        this.db
          .prepare(`DELETE FROM connect_invites WHERE rowid IN (SELECT rowid FROM connect_invites WHERE expires_at_ms < ? LIMIT ?)`)
          .run(before, limit).changes,
    );
  }

  /**
   * Runs `fn` with freed content overwritten with zeros (SQLite leaves it in the page otherwise):
   * every statement here that drops sealed bytes (a spent sign-in, a confirmed or expired invite, a
   * removed connection) runs so.
   */
  private securely<T>(fn: () => T): T {
    const was = this.db.pragma('secure_delete', { simple: true }) as number;
    this.db.pragma('secure_delete = ON');
    try {
      return fn();
    } finally {
      this.db.pragma(`secure_delete = ${was}`);
    }
  }

  /**
   * The WAL still holds the pages as they were before: copied into the file and truncated. Best
   * effort: with a reader still on an older snapshot it stays until SQLite reuses it.
   */
  private emptyWal(): void {
    if (this.db.memory) return;
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  list(): Connection[] {
    return (this.db.prepare(`SELECT * FROM connections ORDER BY kind, name`).all() as ConnectionRow[]).map(connectionOf);
  }

  /** A connection's credentials in clear (JSON as stored); throws the clear error of a wrong or missing key. */
  secrets(kind: ConnectKind, name: string): string | undefined {
    const row = this.db.prepare(`SELECT sealed FROM connections WHERE kind = ? AND name = ?`).get(kind, name) as
      | { sealed: Buffer }
      | undefined;
    return row ? this.open(row.sealed, `${kind}.${name}`) : undefined;
  }

  /** A rotated refresh token (or any new credentials) replaces the stored ones at once. */
  saveSecrets(kind: ConnectKind, name: string, secrets: string): void {
    this.db.prepare(`UPDATE connections SET sealed = ? WHERE kind = ? AND name = ?`).run(this.seal(secrets, `${kind}.${name}`), kind, name);
  }

  /** Forgets the account and its credentials; its links (events written) stay. */
  remove(kind: ConnectKind, name: string): boolean {
    return this.securely(() => this.db.prepare(`DELETE FROM connections WHERE kind = ? AND name = ?`).run(kind, name).changes === 1);
  }
}
