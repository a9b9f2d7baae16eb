// JSON lines on stdout for `serve`; one-shot commands log to stderr. Secrets are redacted by key
// name wherever they appear, as a second line of defence behind never logging them at all.
import pino, { type Logger } from 'pino';
import { UserError } from './core/errors.ts';

export type { Logger };

const REDACT = [
  'token', 'secret', 'previous_secret', 'auth_token', 'admin_token', 'client_secret', 'refresh_token', 'access_token', 'authorization',
  '*.token', '*.secret', '*.previous_secret', '*.auth_token', '*.admin_token', '*.client_secret', '*.refresh_token', '*.access_token', '*.authorization',
  'headers.authorization', 'req.headers.authorization',
];

export interface LogOptions {
  /** 1 = stdout (serve), 2 = stderr (one-shot commands). */
  fd?: 1 | 2;
  level?: string;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The level asked for by CALBRIDGE_LOG_LEVEL, else `fallback`; a misspelt one is an error, not a crash. */
export function logLevel(fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  const asked = env.CALBRIDGE_LOG_LEVEL?.trim().toLowerCase();
  if (!asked) return fallback;
  if (!LEVELS.includes(asked)) throw new UserError(`CALBRIDGE_LOG_LEVEL must be one of ${LEVELS.join(', ')}, not "${asked}"`, 2);
  return asked;
}

export function createLogger(options: LogOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? logLevel('info'),
      base: { app: 'calbridge' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ fd: options.fd ?? 1, sync: true }),
  );
}

/** The logger of commands that print for people: stderr, at warn unless CALBRIDGE_LOG_LEVEL or --verbose says otherwise. */
export function commandLogger(verbose: boolean): Logger {
  return createLogger({ fd: 2, level: verbose ? 'debug' : logLevel('warn') });
}

/** A logger that drops everything: for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Hides the path secret inside URLs like {public_url}/webhooks/{secret}/ before they are logged or printed. */
export function maskUrlSecret(url: string, secret: string): string {
  if (!secret) return url;
  // As written in a URL (encoded) and as given.
  return [encodeURIComponent(secret), secret].reduce((out, s) => out.split(s).join('****'), url);
}
