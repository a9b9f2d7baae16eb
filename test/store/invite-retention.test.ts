// An invite left half way (a sign-in begun and never finished, a calendar never picked) holds sealed
// sign-in data: the PKCE verifier, and the refresh token or app password waiting for a choice. The
// retention job forgets it once the invite expires, so its bytes leave the database file, and
// removes the invite a month later; a live invite is untouched. A real file, the real job.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import type { Invite } from '../../src/store/connect-store.ts';
import { testConfig, type TestContext } from '../helpers/context.ts';
import { retentionContexts } from './retention-context.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const open = retentionContexts();

function setup() {
  const s = open(testConfig({ server: { secret_key: 'invite-retention-secret-key-0123456789' } }));
  return { ...s, store: s.t.ctx.connections };
}

type Sealed = { verifier: Buffer; pending: Buffer };
const sealed = (t: TestContext, invite: Invite) =>
  t.ctx.db.prepare('SELECT verifier, pending FROM connect_invites WHERE id_hash = ?').get(invite.id) as Sealed;

/** The database file and its WAL as they are on disk. */
function fileBytes(t: TestContext): Buffer {
  const path = t.ctx.config.database.path;
  return Buffer.concat([path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f)));
}

describe('sealed sign-in data of invites', () => {
  it('is gone from the file once its invite expires, and the invite a month later; a live invite keeps its own', async () => {
    const s = setup();
    const now = s.clock.now();
    const open = (name: string, lasting: number): Invite => {
      const secret = s.store.createInvite({ kind: 'google', calendarKey: `cal-${name}`, name, expiresAt: now + lasting });
      return s.store.openInvite(secret)!;
    };
    const abandoned = open('ana', HOUR);
    const live = open('bruno', 7 * DAY);
    s.store.beginSignIn(abandoned, 'state-of-ana', 'verifier-of-ana-0123456789');
    s.store.holdPending(abandoned, JSON.stringify({ secrets: { refresh_token: '1//abandoned-refresh-token', issued_at: now } }));
    s.store.beginSignIn(live, 'state-of-bruno', 'verifier-of-bruno-0123456789');
    s.store.holdPending(live, JSON.stringify({ secrets: { refresh_token: '1//live-refresh-token', issued_at: now } }));
    const gone = sealed(s.t, abandoned);
    const kept = sealed(s.t, live);
    s.t.ctx.db.pragma('wal_checkpoint(TRUNCATE)'); // both written to the file, as after any checkpoint
    expect(fileBytes(s.t).includes(gone.pending)).toBe(true);

    // Within its lasting, nothing is touched.
    await s.job.run();
    expect(sealed(s.t, abandoned)).toEqual(gone);

    s.clock.advance(2 * HOUR);
    const result = await s.job.run();
    expect(result.summary).toMatch(/forgot the sign-in data of 1 expired invites/);
    expect(sealed(s.t, abandoned)).toEqual({ verifier: null, pending: null });
    const bytes = fileBytes(s.t);
    expect(bytes.includes(gone.verifier)).toBe(false);
    expect(bytes.includes(gone.pending)).toBe(false);

    // The live invite's sign-in still opens; the late one of the expired invite is told it expired.
    expect(bytes.includes(kept.pending)).toBe(true);
    expect(JSON.parse(s.store.pending(live)!)).toMatchObject({ secrets: { refresh_token: '1//live-refresh-token' } });
    expect(s.store.takeSignIn('state-of-bruno')).toMatchObject({ verifier: 'verifier-of-bruno-0123456789' });
    expect(s.store.takeSignIn('state-of-ana')).toBe('spent');

    // A month after expiring, the invite row goes too; Bruno's, expired later, stays until its own month is up.
    s.clock.advance(30 * DAY);
    expect((await s.job.run()).summary).toMatch(/1 expired invites;/);
    const rows = s.t.ctx.db.prepare('SELECT name FROM connect_invites ORDER BY name').all();
    expect(rows).toEqual([{ name: 'bruno' }]);
  });
});
