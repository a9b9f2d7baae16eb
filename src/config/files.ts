// Checks of the files a config names (check-config only: the rest of calbridge reads them when used).
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
