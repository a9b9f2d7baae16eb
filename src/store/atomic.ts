// Runs a few store calls as one SQLite transaction, without handing the database to the caller:
// all stores share one database, so their statements inside `fn` commit together or not at all.
// Every write transaction in store/ begins IMMEDIATE: it takes the write lock first, waiting on the
// busy timeout. A deferred one that read first and then wanted to write fails at once with "database
// is locked" when another connection (the checkpointer's TRUNCATE) moved the WAL on meanwhile.
import type { Db } from './db.ts';

export type Atomic = <T>(fn: () => T) => T;

const atomics = new WeakMap<Db, Atomic>();

/**
 * The one Atomic of a database. better-sqlite3's `transaction(fn)` builds a set of wrapper
 * functions each time it is called; the worker, the writers and the feeds open a transaction
 * for every appointment they touch, so the wrapper is built once and given the work each time.
 * Inside another transaction it is a savepoint, as a nested `transaction()` is.
 */
export function atomicOf(db: Db): Atomic {
  let atomic = atomics.get(db);
  if (!atomic) {
    const run = db.transaction((fn: () => unknown) => fn());
    atomic = <T>(fn: () => T): T => run.immediate(fn) as T;
    atomics.set(db, atomic);
  }
  return atomic;
}
