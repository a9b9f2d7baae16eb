// The connect tables of a database file, opened just long enough for one command (`connect invite`,
// `connections`), without building the whole runtime.
import { systemClock } from '../core/clock.ts';
import { createSealer } from '../core/seal.ts';
import { ConnectStore } from './connect-store.ts';
import { openDatabase, type OpenOptions } from './db.ts';

export function withConnectStore<T>(
  path: string,
  options: OpenOptions,
  secretKey: string | undefined,
  work: (store: ConnectStore) => T,
): T {
  const db = openDatabase(path, options);
  try {
    return work(new ConnectStore(db, systemClock, secretKey ? createSealer(secretKey) : undefined));
  } finally {
    db.close();
  }
}
