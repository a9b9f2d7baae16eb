import type { Command } from './command.ts';

export const checkConfigCommand: Command = {
  name: 'check-config',
  summary: 'validate the config and print every problem with its YAML path',
  help: 'Refuses (exit 2) two accounts of one kind mapped to the same calendar, naming both paths. Warns (exit 0) about everything `serve` warns about at start: no server.admin_token (the status page then answers 401 to everyone), an http:// server.public_url with webhook.register or Google push notifications on, status_auth: loopback on a non-loopback host. Also warns when a Google service account key file is missing or is not one, when booking.base_url, google.token_url or google.api_root would send tokens over plain http:// to another machine, and when every user of this machine can read the database; for `caldav`, about an http:// URL to another host (the password in clear), a web page copied instead of the CalDAV server address, and calendar entries that a "*" entry before them hides; for `microsoft`, an http:// authority_url or graph_root to another host, a mailbox other than "me" with a delegated (signed-in person) sign-in, calendar entries that a "*" entry before them hides, and change notifications on with a public_url that is not https://. Exit status: 0 valid, 2 invalid. With --print, the resolved config is shown with secrets masked.',
  options: { print: { type: 'boolean', description: 'print the resolved config (secrets masked)' } },
  async run({ values, io, protect }) {
    const { configPath, formatProblem, loadConfigFile } = await import('../config/load.ts');
    const { clearTextWarnings } = await import('../config/clear-text.ts');
    const { eventWarnings, fileProblems, googleCalendarWarnings } = await import('../config/files.ts');
    const { caldavWarnings } = await import('../config/caldav-checks.ts');
    const { microsoftWarnings } = await import('../config/microsoft-checks.ts');
    const { maskedConfig } = await import('../config/mask.ts');
    const { worldReadableWarning } = await import('../store/private-files.ts');
    const { accessWarnings } = await import('../http/admin-auth.ts');
    const { publicUrlProblem } = await import('../booking/webhook-registration.ts');
    const file = configPath(values.config as string | undefined);
    const { config } = loadConfigFile(file); // a ConfigError becomes exit 2 with every problem listed
    protect(config);
    io.out(`${file}: valid.`);
    // Files may exist only where calbridge runs (secrets mounted in production): warn, do not fail.
    for (const p of fileProblems(config)) io.err(`warning: ${formatProblem(p)}; it must exist where calbridge runs`);
    for (const p of eventWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    for (const p of clearTextWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    for (const p of googleCalendarWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    const exposed = config.database.path === ':memory:' ? undefined : worldReadableWarning(config.database.path);
    if (exposed) io.err(`warning: database.path: ${exposed}`);
    for (const p of caldavWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    for (const p of microsoftWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    // What `serve` warns about at start, said before it starts (src/main.ts and the parts' start).
    for (const w of accessWarnings(config.server)) io.err(`warning: ${w}`);
    const plain = publicUrlProblem(config.server.public_url);
    if (plain && config.webhook.register) io.err(`warning: webhook.register: serve would skip the registration: ${plain}`);
    const rs = config.google?.enabled ? config.google.reverse_sync : undefined;
    if (rs?.enabled && rs.push_notifications && rs.push_url === undefined && !/^https:\/\//i.test(config.server.public_url)) {
      io.err(
        'warning: google.reverse_sync.push_notifications: Google delivers push notifications only to https://, and server.public_url is not; moves made in Google come back on the schedule only (set an https:// public_url or push_url, or push_notifications: false)',
      );
    }
    if (values.print) io.out(JSON.stringify(maskedConfig(config), null, 2));
    return 0;
  },
};
