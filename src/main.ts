// Composition root: `serve` builds the runtime (wiring/runtime.ts: config → database → stores →
// adapters → parts → scheduler and HTTP app), listens, starts the schedules and parts, and on a
// signal drains and closes. Nothing opens anything at import time.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { listen } from './net/hono-server.ts';
import type { Config } from './config/schema.ts';
import { UserError } from './core/errors.ts';
import { worldReadableWarning } from './store/private-files.ts';
import { accessWarnings } from './http/admin-auth.ts';
import { capConnections, serverOptions, SERVER_LIMITS, type ServerLimits } from './http/server-limits.ts';
import { buildRuntime, type Runtime, type RuntimeOptions } from './wiring/runtime.ts';

export interface Daemon {
  runtime: Runtime;
  /** Where it listens, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface DaemonOptions extends RuntimeOptions {
  port?: number;
  /** Replaces some of the HTTP server's bounds (tests that must not wait 30 s for a timeout). */
  limits?: Partial<ServerLimits>;
}

/** `serve`: HTTP server, schedules, parts started. stop() drains and closes, bounded in time. */
export async function startDaemon(config: Config, options: DaemonOptions): Promise<Daemon> {
  const runtime = buildRuntime(config, options);
  const log = options.log.child({ module: 'daemon' });
  const wanted = options.port ?? config.server.port;
  const limits: ServerLimits = { ...SERVER_LIMITS, ...options.limits };
  const server: Server = await listen(
    runtime.app.fetch,
    {
      port: wanted,
      host: config.server.host,
      serverOptions: serverOptions(limits),
      ...(runtime.shortcut ? { shortcut: runtime.shortcut } : {}),
    },
    (e) => log.error({ err: e }, 'an answer could not be written'),
  ).catch((e: NodeJS.ErrnoException) => {
    void runtime.close();
    const where = `${config.server.host}:${wanted}`;
    if (e.code === 'EADDRINUSE')
      throw new UserError(`${where} is already in use; stop the other process or change server.port`, 1, { cause: e });
    if (e.code === 'EACCES') throw new UserError(`no permission to listen on ${where}; use a port above 1023`, 1, { cause: e });
    throw e;
  });
  // Past listening, a server error (say, out of file descriptors on accept) is logged, not thrown.
  server.on('error', (e) => log.error({ err: e }, 'HTTP server error'));
  capConnections(server, limits, log);
  const port = (server.address() as AddressInfo).port;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, database: config.database.path }, 'calbridge listening');
  for (const warning of accessWarnings(config.server)) log.warn(warning);

  const exposed = config.database.path === ':memory:' ? undefined : worldReadableWarning(config.database.path);
  if (exposed) log.warn(exposed);

  runtime.scheduler.start();
  for (const part of runtime.parts) {
    part.start?.().catch((e: unknown) => log.warn({ err: e, module: part.name }, 'part start failed'));
  }
  runtime.lifecycle.set('serving');

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      log.info('stopping: no new requests, finishing work in flight');
      runtime.lifecycle.set('stopping');
      // Stop accepting; idle keep-alive sockets would otherwise hold close() open.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 3000).unref())]);
      await runtime.close();
      log.info('stopped');
    })());
  return { runtime, url, port, stop };
}
