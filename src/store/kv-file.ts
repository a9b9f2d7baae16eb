// The key-value table of a database file, opened just long enough for one piece of work: commands
// that store a value without building the whole runtime (`google auth` keeps its refresh token).
import { systemClock } from '../core/clock.ts';
import { openDatabase, type OpenOptions } from './db.ts';
import { KvStore } from './kv-store.ts';

export function withKvStore<T>(path: string, options: OpenOptions, work: (kv: KvStore) => T): T {
  const db = openDatabase(path, options);
  try {
    return work(new KvStore(db, systemClock, 'kv'));
  } finally {
    db.close();
  }
}
