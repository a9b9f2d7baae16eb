// The baseline of the whole-daemon benchmark: a bare Hono server in its own process, answering the
// webhook path with a fixed 200 and the feed path with a fixed body (or 304 to its ETag). The feed
// answers carry the same header set as calbridge's (RFC 9110 §15.4.5: a 304 carries the
// Cache-Control and Vary a 200 would have had), so the two differ in the work done, not in bytes sent.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const feed = readFileSync(process.argv[2] ?? '/dev/null');
const etag = '"bare-etag"';
const common = { ETag: etag, 'Last-Modified': new Date().toUTCString(), 'Cache-Control': 'private, max-age=3600', Vary: 'Accept-Encoding' };
const app = new Hono();
app.post('/webhooks/:secret/', (c) => c.json({ status: 'stored' }));
app.get('/feeds/:file', (c) => {
  if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers: { ...common } });
  return new Response(feed, {
    status: 200,
    headers: { ...common, 'Content-Type': 'text/calendar; charset=utf-8', 'Content-Length': String(feed.length) },
  });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send!({ port: info.port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
