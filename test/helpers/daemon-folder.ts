// A folder for a daemon that a test kills and starts again: a database already holding one
// appointment (so the first pass has a write to make at once), and a config with nothing scheduled
// but the writer, whose calendar target section (google: or caldav:) the test gives as YAML.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Appointment } from '../../src/core/appointment.ts';
import { systemClock } from '../../src/core/clock.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { openDatabase } from '../../src/store/db.ts';

export function daemonFolder(prefix: string, a: Appointment, targetYaml: string): { dir: string; dbPath: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(dir, 'calbridge.db');
  const db = openDatabase(dbPath);
  new AppointmentStore(db, systemClock).upsert(a);
  db.close();
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `server: {host: 127.0.0.1, port: 0, public_url: "http://127.0.0.1:1"}
database: {path: calbridge.db}
booking: {base_url: "http://127.0.0.1:9", token: test-token}
webhook: {secret: kill-test-secret-0123456789, register: false}
poll: {schedule: "0 0 1 1 *"}
${targetYaml}`,
  );
  return { dir, dbPath, config };
}
