// Runs a few store calls as one SQLite transaction, without handing the database to the caller:
// all stores share one database, so their statements inside `fn` commit together or not at all.
// Every write transaction in store/ begins IMMEDIATE: it takes the write lock first, waiting on the
// busy timeout. A deferred one that read first and then wanted to write fails at once with "database
// is locked" when another connection (the checkpointer's TRUNCATE) moved the WAL on meanwhile.
import type { Db } from './db.ts';

export type Atomic = <T>(fn: () => T) => T;

export function atomicOf(db: Db): Atomic {
  return (fn) => db.transaction(fn).immediate();
}
