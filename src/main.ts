// Composition root: config → database → booking client → parts → HTTP app and scheduler.
// Only this file knows every concrete adapter; nothing opens anything at import time.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve as serveHttp, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Config } from './config/schema.ts';
import { createContext, type Context } from './context.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { BookingApi } from './booking/port.ts';
import { bookingClientFromConfig } from './booking/client.ts';
import { openDatabase } from './store/db.ts';
import { leaseOwner } from './store/leases.ts';
import { createMetrics } from './metrics.ts';
import type { Logger } from './log.ts';
import { Scheduler } from './jobs/scheduler.ts';
import { createApp } from './http/app.ts';
import { createParts } from './parts.ts';
import { createStatusPagePart } from './http/status-page.ts';
import type { Part } from './part.ts';
import { UserError } from './core/errors.ts';
import { isLoopback } from './http/admin-auth.ts';

export interface RuntimeOptions {
  log: Logger;
  clock?: Clock;
  /** Replaces the HTTP booking client (tests that need a broken or counting one). */
  booking?: BookingApi;
  /** Process metrics are collected once per process; off for runtimes built inside tests. */
  processMetrics?: boolean;
}

export interface Runtime {
  config: Config;
  ctx: Context;
  parts: Part[];
  scheduler: Scheduler;
  app: Hono;
  /** The whole status document: `status`, /api/status and the status page show it. */
  status(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function buildRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const db = openDatabase(config.database.path, { synchronous: config.database.synchronous });
  const metrics = createMetrics({ processMetrics: options.processMetrics ?? true });
  let scheduler: Scheduler | undefined;
  const ctx = createContext({
    config,
    db,
    clock,
    log,
    metrics,
    booking: options.booking ?? bookingClientFromConfig(config.booking, log),
    leaseOwner: leaseOwner(randomUUID().slice(0, 8)),
    wake: (job) => scheduler?.wake(job),
  });
  const parts = createParts(ctx);
  scheduler = new Scheduler(ctx.leases, log, metrics);
  for (const part of parts) for (const job of part.jobs ?? []) scheduler.add(job);

  const status = (): Record<string, unknown> => ({
    version: process.env.npm_package_version ?? '0.1.0',
    now: new Date(clock.now()).toISOString(),
    ...Object.fromEntries(parts.flatMap((p) => (p.status ? [[p.name, p.status()]] : []))),
  });
  parts.push(createStatusPagePart(ctx, status, () => parts.flatMap((p) => (p.readiness ? [p.readiness()] : []))));
  const app = createApp({ db, log, metrics, adminToken: config.server.admin_token, parts, status });

  let closed = false;
  return {
    config,
    ctx,
    parts,
    scheduler,
    app,
    status,
    async close() {
      if (closed) return;
      closed = true;
      await scheduler.stop();
      for (const part of [...parts].reverse()) {
        try {
          await part.stop?.();
        } catch (e) {
          log.warn({ err: e, part: part.name }, 'part did not stop cleanly');
        }
      }
      db.close();
    },
  };
}

export interface Daemon {
  runtime: Runtime;
  /** Where it listens, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `serve`: HTTP server, schedules, parts started. stop() drains and closes, bounded in time. */
export async function startDaemon(config: Config, options: RuntimeOptions & { port?: number }): Promise<Daemon> {
  const runtime = await buildRuntime(config, options);
  const log = options.log;
  const wanted = options.port ?? config.server.port;
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serveHttp({ fetch: runtime.app.fetch, port: wanted, hostname: config.server.host }, () => resolve(s));
    s.once('error', (e: NodeJS.ErrnoException) => {
      void runtime.close();
      const where = `${config.server.host}:${wanted}`;
      if (e.code === 'EADDRINUSE') reject(new UserError(`${where} is already in use; stop the other process or change server.port`, 1, { cause: e }));
      else if (e.code === 'EACCES') reject(new UserError(`no permission to listen on ${where}; use a port above 1023`, 1, { cause: e }));
      else reject(e);
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, database: config.database.path }, 'calbridge listening');
  if (config.server.admin_token === undefined && !isLoopback(config.server.host)) {
    log.warn('server.admin_token is not set: /status and /api/* answer only callers on this machine, never through a reverse proxy; set it to reach them from elsewhere');
  }

  runtime.scheduler.start();
  for (const part of runtime.parts) {
    part.start?.().catch((e: unknown) => log.warn({ err: e, part: part.name }, 'part start failed'));
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      log.info('stopping: no new requests, finishing work in flight');
      // Stop accepting; idle keep-alive sockets would otherwise hold close() open.
      const closed = new Promise<void>((r) => server.close(() => r()));
      (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 3000).unref())]);
      await runtime.close();
      log.info('stopped');
    })());
  return { runtime, url, port, stop };
}
