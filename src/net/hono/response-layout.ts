// Fixes the object layout V8 gives Node's ServerResponse before the first request, so that every
// process gets the fast one.
//
// V8 sizes the objects a constructor makes from the first few it makes ("in-object slack tracking"):
// after those, each response keeps its fields inside itself. In about a third of the benchmark's
// serve processes (busy from their first second: the start-up poll, the Google backfill, the load),
// that tracking ended before any field was recorded (what ended it was not found), so ServerResponse
// got no room inside at all, and each response (about fifty fields, many set by symbol) fell back to
// a dictionary of its own: a hash table of about 3 KB allocated per answer. Found with %DebugPrint in
// serve (2026-11-27): a 304 answered at 70 answers per minor collection in those processes and at 120
// to 130 in the others (1.7 against 1.4 times bare Hono's CPU per 304; BENCHMARKS.md, "Two layouts
// of ServerResponse"). Making a few responses here, at once and before anything else
// runs, ends the tracking with every field the constructor sets.
import { ServerResponse, type IncomingMessage } from 'node:http';

/** More than the constructions V8 watches before it fixes the layout (7 in V8 12 and 13). */
const CONSTRUCTIONS = 16;

let settled = false;

export function settleResponseLayout(): void {
  if (settled) return;
  settled = true;
  // What the constructor reads of the request (an HTTP/1.1 GET); the responses are never written.
  const request = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage;
  for (let i = 0; i < CONSTRUCTIONS; i++) new ServerResponse(request);
}
