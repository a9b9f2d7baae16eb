// JSON lines on stdout for `serve`; one-shot commands log to stderr. Secrets are redacted by key
// name wherever they appear, as a second line of defence behind never logging them at all.
import pino, { type Logger } from 'pino';

export type { Logger };

const REDACT = [
  'token', 'secret', 'auth_token', 'admin_token', 'client_secret', 'refresh_token', 'access_token', 'authorization',
  '*.token', '*.secret', '*.auth_token', '*.admin_token', '*.client_secret', '*.refresh_token', '*.access_token', '*.authorization',
  'headers.authorization', 'req.headers.authorization',
];

export interface LogOptions {
  /** 1 = stdout (serve), 2 = stderr (one-shot commands). */
  fd?: 1 | 2;
  level?: string;
}

export function createLogger(options: LogOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.CALBRIDGE_LOG_LEVEL ?? 'info',
      base: { app: 'calbridge' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ fd: options.fd ?? 1, sync: true }),
  );
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
