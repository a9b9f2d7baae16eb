// Warnings check-config gives about the microsoft section beyond the schema: what parses but cannot
// work as meant (docs/microsoft-setup.md says why each is so).
import type { ConfigProblem } from './problem.ts';
import type { Config } from './schema.ts';
import { microsoftAccounts } from './accounts.ts';
import { accountPath } from './files.ts';

export function microsoftWarnings(config: Config): ConfigProblem[] {
  const c = config.microsoft;
  if (!c?.enabled) return [];
  // Each account at its own path (`microsoft.accounts[1].calendars[0].user`); the single form at `microsoft`.
  const problems: ConfigProblem[] = microsoftAccounts(c).flatMap(({ name, config: own }) =>
    accountWarnings(own, accountPath('microsoft', c.accounts, name)),
  );
  const rs = c.reverse_sync;
  if (rs.enabled && rs.push_notifications && !/^https:\/\//i.test(config.server.public_url)) {
    problems.push({
      path: 'microsoft.reverse_sync.push_notifications',
      message:
        "Graph delivers change notifications only to https://, and server.public_url is not; moves made in Outlook come back on the delta query's schedule only (set an https:// public_url, or push_notifications: false)",
    });
  }
  return problems;
}

function accountWarnings(
  c: { credentials?: { client_secret?: string | undefined } | undefined; calendars: readonly { calendar_key: string; user: string }[] },
  at: string,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // calbridge asks a person only for Calendars.ReadWrite, which reaches their own calendars: another
  // mailbox's answers 403 (Access is denied).
  if (!c.credentials?.client_secret) {
    c.calendars.forEach((cal, i) => {
      if (cal.user !== 'me')
        problems.push({
          path: `${at}.calendars[${i}].user`,
          message: `is another mailbox, but a signed-in person (no client_secret) can write only their own calendars: use "me", or app-only sign-in (client_secret) to name ${cal.user}`,
        });
    });
  }
  const catchAll = c.calendars.findIndex((m) => m.calendar_key === '*');
  if (catchAll !== -1) {
    for (let i = catchAll + 1; i < c.calendars.length; i++) {
      problems.push({
        path: `${at}.calendars[${i}]`,
        message: `is never used: calendars[${catchAll}] ("*") matches every booking calendar first`,
      });
    }
  }
  return problems;
}
