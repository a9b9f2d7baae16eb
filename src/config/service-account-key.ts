// The Google service account key that google.credentials.service_account_file names, read and
// checked in one place: check-config warns with the problem, Google's auth refuses with it.
import { readFileSync } from 'node:fs';

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
}

export type KeyRead = { ok: true; key: ServiceAccountKey } | { ok: false; problem: string };

/** The key in `file`, or what is wrong with it in one phrase that starts with the file's name. */
export function readServiceAccountKey(file: string): KeyRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code ? `cannot be read (${code})` : 'is not JSON';
    return { ok: false, problem: `${file} ${why}` };
  }
  const k = parsed as Partial<Record<keyof ServiceAccountKey, unknown>> | null;
  if (!k || typeof k.client_email !== 'string' || typeof k.private_key !== 'string' || !k.client_email || !k.private_key) {
    return { ok: false, problem: `${file} is not a service account key (it has no client_email and private_key)` };
  }
  return { ok: true, key: { client_email: k.client_email, private_key: k.private_key } };
}
