// Folders for a `serve` with one feed over a database that already holds many appointments, as a
// one-shot `sync` leaves it (stored, and in no feed yet); each removed after its test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { appointment } from '../feeds/appointments.ts';

export interface FeedDaemonOptions {
  /** The feed's token (its name is Clinic). */
  token: string;
  /** How many appointments are stored. */
  events: number;
  /** More of the `server:` section, as YAML mapping entries (e.g. `status_auth: loopback`). */
  server?: string;
}

/** Call at a test file's top level: the returned function makes a folder and gives its config file. */
export function feedDaemonFolders(prefix: string): (options: FeedDaemonOptions) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return ({ token, events, server }) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        `server: {host: 127.0.0.1, port: 0, public_url: "https://cal.example.com"${server ? `, ${server}` : ''}}`,
        'database: {path: calbridge.db}',
        'booking: {base_url: "http://127.0.0.1:9", token: booking-token-0123456789abcdef}',
        'webhook: {secret: feed-daemon-webhook-secret-0123, register: false}',
        'poll: {schedule: "0 0 1 1 *"}',
        `feeds: [{name: Clinic, token: ${token}}]`,
      ].join('\n'),
    );
    const db = openDatabase(join(dir, 'calbridge.db'));
    const store = new AppointmentStore(db, systemClock);
    db.transaction(() => {
      for (let n = 0; n < events; n++) store.upsert(appointment(n));
    })();
    db.close();
    return config;
  };
}
