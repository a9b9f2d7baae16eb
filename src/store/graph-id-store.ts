// graph_ids: Graph's event id of each of our Outlook events, with the change key (@odata.etag) and
// hash of our last write (src/microsoft/graph-ids.ts says why the adapter needs them). Two delegated
// accounts both name their calendar "me/Calendar": an account other than `default` keeps its rows
// under its own name (`microsoft.carla:me/Calendar`), so they never meet.
import type { Db } from './db.ts';

export interface GraphIdRow {
  graphId: string;
  etag: string | null;
  hash: string | null;
}

export class GraphIdStore {
  private readonly select;
  private readonly byGraph;
  private readonly upsert;
  private readonly clearGraph;
  private readonly remove;

  /** How this account's calendars are kept: as they are for the account `default`, under the account's name for another. */
  private readonly at: (calendarId: string) => string;

  constructor(db: Db, account = 'microsoft.default') {
    this.at = account === 'microsoft.default' ? (c) => c : (c) => `${account}:${c}`;
    this.select = db.prepare('SELECT graph_id, etag, hash FROM graph_ids WHERE calendar_id = ? AND event_key = ?');
    this.byGraph = db.prepare('SELECT event_key FROM graph_ids WHERE calendar_id = ? AND graph_id = ?');
    // Another key holding this Graph id (a copy adopted under a new key) gives it up first.
    this.clearGraph = db.prepare('DELETE FROM graph_ids WHERE calendar_id = ? AND graph_id = ? AND event_key <> ?');
    this.upsert = db.prepare(
      `INSERT INTO graph_ids (calendar_id, event_key, graph_id, etag, hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (calendar_id, event_key) DO UPDATE SET graph_id = excluded.graph_id, etag = excluded.etag, hash = excluded.hash`,
    );
    this.remove = db.prepare('DELETE FROM graph_ids WHERE calendar_id = ? AND event_key = ?');
  }

  get(calendarId: string, key: string): GraphIdRow | undefined {
    const r = this.select.get(this.at(calendarId), key) as { graph_id: string; etag: string | null; hash: string | null } | undefined;
    return r && { graphId: r.graph_id, etag: r.etag, hash: r.hash };
  }

  set(calendarId: string, key: string, r: GraphIdRow): void {
    this.clearGraph.run(this.at(calendarId), r.graphId, key);
    this.upsert.run(this.at(calendarId), key, r.graphId, r.etag, r.hash);
  }

  forget(calendarId: string, key: string): void {
    this.remove.run(this.at(calendarId), key);
  }

  keyOf(calendarId: string, graphId: string): string | undefined {
    return (this.byGraph.get(this.at(calendarId), graphId) as { event_key: string } | undefined)?.event_key;
  }
}
