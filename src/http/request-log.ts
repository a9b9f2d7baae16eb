// One log line per request: method, route pattern, status, milliseconds and a request id. Routes are
// named by their pattern, never by the path: /webhooks/{secret}/ and /feeds/{token}.ics carry secrets.
// The line is written around the app's fetch, not by a middleware, so a route that is the only match
// keeps Hono's single-handler fast path.
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../log.ts';
import { isClientAbort } from './client-aborted.ts';

/** Asked every few seconds by orchestrators and scrapers: a line each would drown the log. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
/**
 * A conditional request answered "nothing changed" (a calendar app polling its feed) is a probe
 * too: its line is at debug, and at info it costs nothing beyond the answer.
 */
const NOT_MODIFIED = 304;

interface Failure {
  err: Error;
  aborted: boolean;
  route: string;
  requestId: string;
}

/** Installs the app's one error handler and wraps `app.fetch` (also what `app.request()` calls). */
export function logRequests(app: Hono, log: Logger): void {
  const failures = new WeakMap<Request, Failure>();
  // The line of a request answered is made of the fields below and nothing else: no secret can be
  // in it, so it skips pino's redaction by key name, most of what a line costs (measured; a busy
  // receiver writes thousands a second). The configured secrets are still masked in it, as in every
  // line (log.ts). Failures keep the redacted logger: an error can carry anything.
  const answered = log.child({}, { redact: [] });
  const boot = randomBytes(3).toString('hex');
  let seq = 0;
  const nextId = () => `${boot}-${(++seq).toString(36)}`;

  app.onError((err, c) => {
    const failure = { err, aborted: isClientAbort(err, c), route: routePath(c), requestId: nextId() };
    failures.set(c.req.raw, failure);
    // Nobody reads the answer to a client that left; a failure of ours names the line to look for.
    return failure.aborted ? c.body(null, 400) : c.json({ error: 'internal error', request_id: failure.requestId }, 500);
  });

  /** The pattern of the route that took the request, as the router matched it. */
  const routeOf = (request: Request): string => {
    const method = request.method === 'HEAD' ? 'GET' : request.method; // Hono answers HEAD with GET routes
    const matched = app.router.match(method, app.getPath(request))[0];
    return matched[matched.length - 1]?.[0][1].path ?? '(no route)';
  };

  const logged = (request: Request, res: Response, started: number): Response => {
    const failure = failures.get(request);
    if (failure === undefined && !log.isLevelEnabled(res.status === NOT_MODIFIED ? 'debug' : 'info')) return res;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const { method } = request;
    if (failure?.aborted) {
      log.debug({ request_id: failure.requestId, method, route: failure.route, ms }, 'request aborted by the client');
    } else if (failure) {
      log.error(
        { request_id: failure.requestId, method, route: failure.route, status: res.status, ms, err: failure.err },
        'request failed',
      );
    } else {
      const route = routeOf(request);
      const fields = { request_id: nextId(), method, route, status: res.status, ms };
      if ((PROBES.has(route) && res.status < 400) || res.status === NOT_MODIFIED) answered.debug(fields, 'request');
      else answered.info(fields, 'request');
    }
    return res;
  };

  const dispatch = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    const started = performance.now();
    const res = dispatch(request, env, executionCtx);
    return res instanceof Promise ? res.then((r) => logged(request, r, started)) : logged(request, res, started);
  };
}
