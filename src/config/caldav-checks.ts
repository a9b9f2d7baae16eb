// Warnings check-config gives about the caldav section beyond the schema: a password sent in clear,
// a URL copied from a web page instead of the DAV root, a calendar entry no appointment can reach.
import type { Config } from './schema.ts';
import type { ConfigProblem } from './problem.ts';
import { caldavAccounts } from './accounts.ts';
import { accountPath } from './files.ts';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Web addresses people copy from the browser, and the DAV root they mean. */
const WEB_PAGES: [RegExp, string][] = [
  [/^(www\.)?icloud\.com$/, 'https://caldav.icloud.com/'],
  [/^(www|app)\.fastmail\.com$/, 'https://caldav.fastmail.com/dav/'],
];

export function caldavWarnings(config: Config): ConfigProblem[] {
  return caldavAccounts(config.caldav).flatMap(({ name, config: c }) =>
    accountWarnings(c, accountPath('caldav', config.caldav?.accounts, name)),
  );
}

function accountWarnings(c: { url: string; calendars: readonly { calendar_key: string }[] }, at: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const url = new URL(c.url);
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    problems.push({ path: `${at}.url`, message: 'is http://: the password goes with every request in clear text; use https://' });
  }
  const root = WEB_PAGES.find(([host]) => host.test(url.hostname))?.[1];
  if (root) problems.push({ path: `${at}.url`, message: `is the web page, not the CalDAV server; use ${root}` });
  if (/\/index\.php\/apps\/calendar/.test(url.pathname)) {
    problems.push({
      path: `${at}.url`,
      message: `is Nextcloud's calendar page, not its CalDAV server; use ${url.origin}/remote.php/dav/`,
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
