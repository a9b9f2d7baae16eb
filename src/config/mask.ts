// Secrets never reach a log or a terminal: every printed config goes through this.
import type { Config } from './schema.ts';
import { maskUrlUserinfo } from '../core/mask-userinfo.ts';

const MASK = '********';
const SECRET_KEYS = new Set([
  'admin_token',
  'token',
  'secret',
  'previous_secret',
  'auth_token',
  'client_secret',
  'refresh_token',
  'password',
  'secret_key',
]);

/** Whether a config key holds a secret: its value is never printed, not even in an error. */
export function isSecretKey(key: PropertyKey | undefined): boolean {
  return typeof key === 'string' && SECRET_KEYS.has(key);
}

export function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  }
  if (isSecretKey(key) && typeof value === 'string' && value !== '') return MASK;
  return typeof value === 'string' ? maskUrlUserinfo(value) : value;
}

export function maskedConfig(config: Config): unknown {
  return maskSecrets(config);
}
