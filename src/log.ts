// JSON lines on stdout for `serve`; one-shot commands log to stderr. Secrets are redacted by key
// name wherever they appear, and the configured secrets by value in every line written, as lines of
// defence behind never logging them at all.
import pino, { type Logger } from 'pino';
import { UserError } from './core/errors.ts';

import { maskUrlUserinfo } from './core/mask-userinfo.ts';

export type { Logger };

const REDACT = [
  'token',
  'secret',
  'previous_secret',
  'auth_token',
  'admin_token',
  'client_secret',
  'refresh_token',
  'access_token',
  'authorization',
  '*.token',
  '*.secret',
  '*.previous_secret',
  '*.auth_token',
  '*.admin_token',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
];

export interface LogOptions {
  /** 1 = stdout (serve), 2 = stderr (one-shot commands). */
  fd?: 1 | 2;
  level?: string;
  /** Configured secrets, masked wherever they appear in a line (an error message, a URL). */
  secrets?: readonly string[];
  /** Where lines go instead of the fd (tests that read what a daemon logs). */
  stream?: { write(line: string): void };
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
  const scrub = secretScrubber(options.secrets ?? []);
  return pino(
    {
      level: options.level ?? logLevel('info'),
      base: { app: 'calbridge' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      ...(scrub ? { hooks: { streamWrite: scrub } } : {}),
    },
    options.stream ?? destination(options.fd ?? 1),
  );
}

/** What a stalled log reader may cost in memory before lines are dropped (never blocking serve). */
const MAX_BUFFERED_LOG = 16 * 1024 * 1024;
/**
 * serve's lines go out in writes of 4 KiB or every 200 ms, whichever comes first: a write each
 * cost a large share of an acknowledged webhook's CPU at saturation. Lines still buffered are
 * written when the process exits (pino flushes them, also after a crash); a SIGKILL loses at most
 * the last 200 ms of them.
 */
const BATCH_BYTES = 4096;
const BATCH_MS = 200;

/**
 * serve's stdout takes a line per request: written asynchronously, so a busy receiver does not block
 * on a write per request (pino flushes what is left at exit). Commands write stderr at once.
 *
 * serve's lines are handed over as bytes (sonic-boom's buffer mode), each its own Buffer. As text,
 * sonic-boom appends every line to the batch's string and measures the whole batch's byte length
 * again, which copies the batch once per line: kilobytes of garbage per line, a sizeable part of
 * what serve allocated while acknowledging webhooks.
 */
function destination(fd: 1 | 2): { write(line: string): void; flush(cb?: (err?: Error) => void): void } {
  if (fd === 2) return pino.destination({ fd, sync: true });
  const bytes = pino.destination({
    fd,
    sync: false,
    minLength: BATCH_BYTES,
    periodicFlush: BATCH_MS,
    maxLength: MAX_BUFFERED_LOG,
    contentMode: 'buffer',
  });
  return {
    // sonic-boom's types know only its text mode; in buffer mode its write takes a Buffer.
    write: (line) => bytes.write(Buffer.from(line) as unknown as string),
    // logger.flush(): what a graceful stop calls; the exit itself is flushed by pino (registered with the stream).
    flush: (cb) => bytes.flush(cb),
  };
}

/**
 * Masks each secret in a line as it may be written there: as given, as JSON escapes it inside a
 * string, and percent-encoded in a URL; and the user and password written into any URL
 * (`https://user:pw@host`). Undefined when there is nothing to mask.
 */
export function secretScrubber(secrets: readonly string[]): ((line: string) => string) | undefined {
  const forms = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]))].filter((f) => f !== '');
  if (forms.length === 0) return maskUrlUserinfo;
  return (line) => {
    let out = line;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join('[redacted]');
    return maskUrlUserinfo(out);
  };
}

/** The logger of commands that print for people: stderr, at warn unless CALBRIDGE_LOG_LEVEL or --verbose says otherwise. */
export function commandLogger(verbose: boolean, secrets: readonly string[] = []): Logger {
  return createLogger({ fd: 2, level: verbose ? 'debug' : logLevel('warn'), secrets });
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
