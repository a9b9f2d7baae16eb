// Graph chooses event ids, so the adapter keeps, per calendar and appointment, the id Graph gave and
// the version and hash of our last write: the next PATCH needs the id, and a delta entry showing that
// very version is our own echo. Losing it costs requests, never correctness: the event is found again
// by its appointment_key property (graph-target.ts looks it up before every create).

export interface Remembered {
  graphId: string;
  /** The @odata.etag of our last write (or of what we last read), null when unknown. */
  etag: string | null;
  /** The hash property of that write. */
  hash: string | null;
}

export interface GraphIds {
  get(calendarId: string, key: string): Remembered | undefined;
  set(calendarId: string, key: string, r: Remembered): void;
  forget(calendarId: string, key: string): void;
  /** The appointment (event id of the port) whose Graph event this is. */
  keyOf(calendarId: string, graphId: string): string | undefined;
}

/** In memory: the tests'; the daemon keeps them in the database (store/graph-id-store.ts). */
export function memoryGraphIds(): GraphIds {
  const byKey = new Map<string, Remembered>();
  const byGraph = new Map<string, string>();
  const k = (c: string, x: string) => `${c}\u0000${x}`;
  return {
    get: (c, key) => byKey.get(k(c, key)),
    set(c, key, r) {
      const before = byKey.get(k(c, key));
      if (before && before.graphId !== r.graphId) byGraph.delete(k(c, before.graphId));
      byKey.set(k(c, key), r);
      byGraph.set(k(c, r.graphId), key);
    },
    forget(c, key) {
      const before = byKey.get(k(c, key));
      if (before) byGraph.delete(k(c, before.graphId));
      byKey.delete(k(c, key));
    },
    keyOf: (c, graphId) => byGraph.get(k(c, graphId)),
  };
}
