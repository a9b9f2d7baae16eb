import { wholeNumberOption } from './args.ts';
import type { Command } from './command.ts';

/** How long a graceful stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 4500;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the daemon: webhook receiver, scheduled poll, Google sync both ways, feeds',
  help: 'Logs JSON lines on stdout. Stops gracefully on SIGTERM or SIGINT (exit 0).',
  options: { port: { type: 'string', description: 'listen on this port instead of server.port' } },
  async run({ values, loadConfig, verbose }) {
    const { createLogger } = await import('../log.ts');
    const { configuredSecrets } = await import('../http/status-page/redact.ts');
    const config = loadConfig();
    const port = values.port === undefined ? undefined : wholeNumberOption(values.port, 'port', 0, 0, 65535);
    const log = createLogger({ fd: 1, level: verbose ? 'debug' : undefined, secrets: configuredSecrets(config) });
    const { startDaemon } = await import('../main.ts');
    const daemon = await startDaemon(config, { log, port });
    // npm does not pass a signal on: stopping `npm start` leaves this process running. Said at start,
    // so whoever wrote a service unit around it learns to run bin/calbridge.js directly.
    if (process.env.npm_lifecycle_event === 'start') {
      log.warn('started by `npm start`: stopping npm does not stop calbridge; under a service manager run bin/calbridge.js serve directly');
    }
    return waitForSignal(() => daemon.stop());
  },
};

/** Resolves with exit status 0 once a SIGTERM/SIGINT has stopped the work (or the deadline passed). */
export function waitForSignal(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      const deadline = setTimeout(() => resolve(0), STOP_DEADLINE_MS);
      void stop()
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(deadline);
          resolve(0);
        });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
