// `calbridge google auth` run in process on a config: what it prints, a keyboard the test types on
// (stdin), the consent URL once printed, and the refresh token it stored in the database.
import { PassThrough } from 'node:stream';
import type { Config } from '../../src/config/schema.ts';
import { googleAuthCommand } from '../../src/commands/google-auth.ts';
import { currentRefreshToken, refreshTokenIssuedAt } from '../../src/google/auth.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { systemClock } from '../../src/core/clock.ts';
import { googleAccounts } from '../../src/config/accounts.ts';

export interface GoogleAuthRun {
  /** Every line it printed, stdout and stderr. */
  printed: string[];
  /** Its exit status (or its failure). */
  exit: Promise<number>;
  consentUrl: Promise<string>;
  /** Types a line on its stdin. */
  type(line: string): void;
  /** The refresh token stored in the database now. */
  stored(): string | undefined;
  /** When the stored token was issued, as stored with it (null: not said). */
  issuedAt(): number | null;
}

export function runGoogleAuth(config: Config, options: { keyboard?: boolean; isTty?: boolean; account?: string } = {}): GoogleAuthRun {
  const name = options.account ?? 'default';
  const keyboard = new PassThrough();
  const printed: string[] = [];
  let consent!: (url: string) => void;
  const consentUrl = new Promise<string>((r) => (consent = r));
  const exit = googleAuthCommand.run({
    values: { timeout: '20', ...(options.account ? { account: options.account } : {}) },
    positionals: [],
    verbose: false,
    io: {
      out: (line) => {
        printed.push(line);
        if (line.includes('redirect_uri=')) consent(line);
      },
      err: (line) => printed.push(line),
      isTty: options.isTty ?? true,
      ...(options.keyboard === false ? {} : { input: keyboard }),
    },
    loadConfig: () => config,
    protect: (c) => c,
    openRuntime: () => Promise.reject(new Error('not needed')),
  });
  return {
    printed,
    exit,
    consentUrl,
    type: (line) => void keyboard.write(`${line}\n`),
    stored: () => storedToken(config, name),
    issuedAt() {
      const db = openDatabase(config.database.path);
      try {
        return refreshTokenIssuedAt(new KvStore(db, systemClock, 'kv'), accountConfig(config, name), name);
      } finally {
        db.close();
      }
    },
  };
}

const accountConfig = (config: Config, name: string) =>
  googleAccounts(config.google).find((a) => a.name === name)?.config ?? config.google!;

/** The refresh token an account (`default`: the single form) has stored in the database now. */
export function storedToken(config: Config, account: string): string | undefined {
  const db = openDatabase(config.database.path);
  try {
    return currentRefreshToken(new KvStore(db, systemClock, 'kv'), accountConfig(config, account), account);
  } finally {
    db.close();
  }
}
