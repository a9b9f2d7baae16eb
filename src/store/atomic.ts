// Runs a few store calls as one SQLite transaction, without handing the database to the caller:
// all stores share one database, so their statements inside `fn` commit together or not at all.
// Every write transaction in store/ begins IMMEDIATE: it takes the write lock first, waiting on the
// busy timeout. A deferred one that read first and then wanted to write fails at once with "database
// is locked" when another connection (the checkpointer's TRUNCATE) moved the WAL on meanwhile.
import type { Db } from './db.ts';

export type Atomic = <T>(fn: () => T) => T;

interface Transactions {
  atomic: Atomic;
  flat: Atomic;
}

const transactions = new WeakMap<Db, Transactions>();
/** Databases inside a flat transaction: their atomic calls run inline. */
const flattened = new WeakSet<Db>();

function transactionsOf(db: Db): Transactions {
  let found = transactions.get(db);
  if (!found) {
    const run = db.transaction((fn: () => unknown) => fn());
    const atomic = <T>(fn: () => T): T => (flattened.has(db) ? fn() : (run.immediate(fn) as T));
    const flat = <T>(fn: () => T): T => {
      if (flattened.has(db) || db.inTransaction) return atomic(fn);
      flattened.add(db);
      try {
        return run.immediate(fn) as T;
      } finally {
        flattened.delete(db);
      }
    };
    found = { atomic, flat };
    transactions.set(db, found);
  }
  return found;
}

/**
 * The one Atomic of a database. better-sqlite3's `transaction(fn)` builds a set of wrapper
 * functions each time it is called; the worker, the writers and the feeds open a transaction
 * for every appointment they touch, so the wrapper is built once and given the work each time.
 * Inside another transaction it is a savepoint, as a nested `transaction()` is; inside a flat one
 * (below), it is part of it.
 */
export function atomicOf(db: Db): Atomic {
  return transactionsOf(db).atomic;
}

/**
 * One transaction in which every atomicOf(db) runs inline instead of as a savepoint: a throw
 * anywhere in it undoes all of it. For a hot group of small writes: each savepoint makes SQLite
 * copy the pages it changes into a sub-journal whose first block is 64 KiB, which malloc, as serve
 * runs it (bin/calbridge.js), maps and unmaps every time. So code inside must not catch a store's error and go on: with no
 * savepoint, what the failed call wrote before it threw would stay and be committed. Inside a
 * transaction already, it is what atomicOf is there.
 */
export function flatAtomicOf(db: Db): Atomic {
  return transactionsOf(db).flat;
}
