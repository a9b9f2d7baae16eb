// Runs a few store calls as one SQLite transaction, without handing the database to the caller:
// all stores share one database, so their statements inside `fn` commit together or not at all.
import type { Db } from './db.ts';

export type Atomic = <T>(fn: () => T) => T;

export function atomicOf(db: Db): Atomic {
  return (fn) => db.transaction(fn)();
}
