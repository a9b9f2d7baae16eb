// Checks check-config makes beyond the schema, reported as warnings: files a config names (they may
// exist only where calbridge runs) and webhook events the booking service is not known to send.
import { readFileSync } from 'node:fs';
import type { Config } from './schema.ts';
import type { ConfigProblem } from './load.ts';

export function fileProblems(config: Config): ConfigProblem[] {
  const file = config.google?.enabled ? config.google.credentials.service_account_file : undefined;
  if (!file) return [];
  const path = 'google.credentials.service_account_file';
  let key: unknown;
  try {
    key = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code ? `cannot be read (${code})` : 'is not JSON';
    return [{ path, message: `${file} ${why}` }];
  }
  const k = key as Record<string, unknown> | null;
  if (!k || typeof k.client_email !== 'string' || typeof k.private_key !== 'string') {
    return [{ path, message: `${file} is not a service account key (it has no client_email and private_key)` }];
  }
  return [];
}

/** The events the seed names, plus `appointment.deleted`, which the service is known to send. */
export const KNOWN_EVENTS = ['appointment.created', 'appointment.updated', 'appointment.canceled', 'appointment.deleted'];

export function eventWarnings(config: Config): ConfigProblem[] {
  return config.webhook.events
    .map((event, i) => ({ event, i }))
    .filter(({ event }) => !KNOWN_EVENTS.includes(event))
    .map(({ event, i }) => ({
      path: `webhook.events[${i}]`,
      message: `"${event}" is not an event the booking service is known to send (${KNOWN_EVENTS.join(', ')}); a misspelt one is never delivered`,
    }));
}
