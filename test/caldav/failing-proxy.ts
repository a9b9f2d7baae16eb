// A proxy in front of a real server that fails a given share of requests with a 5xx (or a 429),
// chosen by a seeded generator so a failing run repeats exactly. A failure happens either before the
// request reaches the server (nothing applied) or after the server applied it, with its answer
// replaced: the case where only a conditional request can be repeated safely. It can also play a
// server without sync-collection, so the ETag-listing way of reading changes runs against Radicale.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailingProxyOptions {
  /** The real server, e.g. Radicale's http://127.0.0.1:<port>/ */
  target: string;
  /** Share of requests that fail, 0..1. */
  share: number;
  seed: number;
  /** before: never forwarded; after: forwarded and applied, answer replaced; mixed: either, by the same generator. */
  when?: 'before' | 'after' | 'mixed';
  /** Statuses to fail with, picked by the generator. */
  statuses?: number[];
  /** Headers on a failure, e.g. retry-after. */
  headers?: Record<string, string>;
  /** The first request of this method whose path matches is forwarded (and applied), its answer never sent: `held` resolves then. */
  hold?: { method: string; path: RegExp };
  /** Play a server without sync-collection (RFC 6578). */
  noSync?: NoSyncServer;
}

/**
 * How a server without sync-collection shows it. `hidden`: its PROPFIND answers carry no
 * DAV:sync-token (a 404 propstat, as for any property it lacks) and no sync-collection in
 * DAV:supported-report-set; `advertised`: it names both yet refuses the REPORT (a server whose
 * discovery and REPORT handling disagree). A refused REPORT is answered as RFC 3253 §3.6 says
 * (403 with DAV:supported-report), or with a plain 501 as many servers do.
 */
export interface NoSyncServer {
  discovery: 'hidden' | 'advertised';
  refusal: 403 | 501;
}

export interface FailingProxy {
  url: string;
  stats: { requests: number; failedBefore: number; failedAfter: number; refusedSyncReports: number };
  /** Every request forwarded, with the server's status (the held one included). */
  log: { method: string; path: string; status: number }[];
  /** Resolves once the request to hold has been applied by the server (its answer withheld). */
  held: Promise<void>;
  /** From now on this share of requests fails (0: none, 1: every one). */
  setShare(share: number): void;
  stop(): Promise<void>;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function forward(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
  plain = false,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
  delete headers.connection;
  // An answer to be rewritten must come uncompressed (Radicale gzips when asked).
  if (plain) delete headers['accept-encoding'];
  return new Promise((resolve, reject) => {
    const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, async (res) => {
      resolve({ status: res.statusCode ?? 502, headers: res.headers, body: await bodyOf(res) });
    });
    out.on('error', reject);
    out.end(body);
  });
}

const SUPPORTED_REPORT_ERROR = '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:supported-report/></D:error>';

/** A PROPFIND answer with sync-collection taken out: the token moves to a 404 propstat, the report off the list. */
function withoutSyncCollection(body: Buffer): Buffer {
  const responses = body.toString('utf8').split(/(?=<\/(?:\w+:)?response>)/);
  const edited = responses.map((part) => {
    const token = /<((?:\w+:)?)sync-token>[^<]*<\/\1sync-token>/.exec(part);
    if (!token) return part;
    const p = token[1];
    const missing = `<${p}propstat><${p}prop><${p}sync-token /></${p}prop><${p}status>HTTP/1.1 404 Not Found</${p}status></${p}propstat>`;
    return part.replace(token[0], '') + missing;
  });
  return Buffer.from(
    edited
      .join('')
      .replace(/<((?:\w+:)?)supported-report>\s*<\1report>\s*<\1sync-collection\s*\/>\s*<\/\1report>\s*<\/\1supported-report>/g, ''),
    'utf8',
  );
}

export async function startFailingProxy(o: FailingProxyOptions): Promise<FailingProxy> {
  const random = seeded(o.seed);
  const target = new URL(o.target);
  const statuses = o.statuses ?? [500, 502, 503, 504];
  const stats = { requests: 0, failedBefore: 0, failedAfter: 0, refusedSyncReports: 0 };
  const log: FailingProxy['log'] = [];
  let hold = o.hold;
  let share = o.share;
  let markHeld = () => {};
  const held = new Promise<void>((r) => (markHeld = r));
  const server = createServer(async (req, res) => {
    stats.requests++;
    const body = await bodyOf(req);
    if (hold && req.method === hold.method && hold.path.test(req.url ?? '')) {
      hold = undefined;
      const answer = await forward(target, req, body);
      log.push({ method: req.method ?? '', path: req.url ?? '', status: answer.status });
      markHeld();
      return; // the client never hears back
    }
    if (o.noSync && req.method === 'REPORT' && /sync-collection/.test(body.toString('utf8'))) {
      stats.refusedSyncReports++;
      log.push({ method: 'REPORT', path: req.url ?? '', status: o.noSync.refusal });
      return o.noSync.refusal === 403
        ? res.writeHead(403, { 'content-type': 'application/xml; charset=utf-8' }).end(SUPPORTED_REPORT_ERROR)
        : res.writeHead(501, { 'content-type': 'text/plain' }).end('Not Implemented');
    }
    const fail = random() < share;
    const after = o.when === 'after' || (o.when === 'mixed' && random() < 0.5);
    const status = statuses[Math.floor(random() * statuses.length)] ?? 503;
    const injected = () => res.writeHead(status, { 'content-type': 'text/plain', ...o.headers }).end('injected failure');
    if (fail && !after) {
      stats.failedBefore++;
      return injected();
    }
    try {
      const answer = await forward(target, req, body, o.noSync !== undefined);
      log.push({ method: req.method ?? '', path: req.url ?? '', status: answer.status });
      if (fail) {
        stats.failedAfter++;
        return injected();
      }
      const out = o.noSync?.discovery === 'hidden' && req.method === 'PROPFIND' ? withoutSyncCollection(answer.body) : answer.body;
      const headers = { ...answer.headers, 'content-length': String(out.length) };
      delete headers['transfer-encoding'];
      res.writeHead(answer.status, headers).end(out);
    } catch {
      res.writeHead(502).end('proxy could not reach the server');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stats,
    log,
    held,
    setShare: (s) => void (share = s),
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
