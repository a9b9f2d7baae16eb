// `connect invite`, `connections list` and `connections remove NAME` (docs/reference/commands.md):
// a one-time link for a person to connect their own calendar, and the accounts connected that way.
// They open the database alone; a running serve notices a removal when its `accounts` job next runs.
import { UserError } from '../core/errors.ts';
import type { Command, CommandArgs } from './command.ts';

async function open(args: CommandArgs) {
  const [{ withConnectStore }, config] = [await import('../store/connect-file.ts'), args.loadConfig()];
  const run = <T>(work: Parameters<typeof withConnectStore<T>>[3]) =>
    withConnectStore(config.database.path, { synchronous: config.database.synchronous }, config.server.secret_key, work);
  return { config, run };
}

export const connectInviteCommand: Command = {
  name: 'connect invite',
  summary: 'print a one-time link {public_url}/connect/{invite} that lets a person connect their own calendar',
  help:
    'The person who opens the link signs in to Google or Microsoft, or gives their CalDAV server and an\n' +
    'app password, picks one of their calendars and confirms; the booking calendar KEY then goes there too.\n' +
    'The link works once and expires (--expires, default 7d; e.g. 12h, 30m; at most 90d). --name names\n' +
    'the account (`google.NAME`; a-z, 0-9, -); without it, one is made from the calendar key.\n' +
    'Needs connect.enabled and server.secret_key. Exit 0 printed, 2 bad arguments (the reason is said).',
  options: {
    target: { type: 'string', description: 'google, microsoft or caldav' },
    'calendar-key': { type: 'string', description: 'the booking calendar whose appointments go to the connected calendar' },
    name: { type: 'string', description: 'the account name (default: from the calendar key)' },
    expires: { type: 'string', description: 'how long the link works: 7d (default), 12h, 30m' },
  },
  async run(args) {
    const { values, io } = args;
    if (typeof values.target !== 'string') throw new UserError('--target is required: google, microsoft or caldav', 2);
    if (typeof values['calendar-key'] !== 'string') throw new UserError('--calendar-key is required: the booking calendar to connect', 2);
    const { makeInvite } = await import('../sync/connect/invite.ts');
    const { config, run } = await open(args);
    const r = run((store) =>
      makeInvite(
        config,
        store,
        {
          target: values.target as string,
          calendarKey: values['calendar-key'] as string,
          name: values.name as string | undefined,
          expires: values.expires as string | undefined,
        },
        Date.now(),
      ),
    );
    if (!r.ok) throw new UserError(r.reason, 2);
    io.out(r.url);
    io.err(`calbridge connect invite: the link connects ${r.kind}.${r.name}; it works once, until ${new Date(r.expiresAt).toISOString()}.`);
    return 0;
  },
};

export const connectionsListCommand: Command = {
  name: 'connections list',
  summary: 'the calendar accounts connected on the web',
  help: 'One line each: the account, the booking calendar, the calendar picked and when. Exit 0 ok, 1 failed (e.g. the stored credentials do not open with server.secret_key).',
  async run(args) {
    const { connectedAccountsOf } = await import('../sync/connect/connected-accounts.ts');
    const { systemClock } = await import('../core/clock.ts');
    const { config, run } = await open(args);
    const list = run((store) => {
      // Opened as the runtime opens them: a wrong server.secret_key is said here, not found later.
      connectedAccountsOf(store, config, systemClock, { strict: true })();
      return store.list();
    });
    if (list.length === 0) args.io.out('no calendar is connected');
    for (const c of list)
      args.io.out(
        `${c.kind}.${c.name}  calendar_key ${c.calendarKey}  -> ${c.calendarName} (${c.calendar})  since ${new Date(c.createdAt).toISOString()}`,
      );
    return 0;
  },
};

export const connectionsRemoveCommand: Command = {
  name: 'connections remove',
  summary: 'forget a connected account and its credentials (its events stay in its calendar)',
  args: ['<NAME>'],
  help: 'NAME is the account (`ana`, or `google.ana` when two kinds hold it). Its writes stop; the events already written stay. Exit 0 removed, 1 unknown.',
  async run(args) {
    const name = args.positionals[0];
    if (!name)
      throw new UserError('give the account to remove, e.g. `calbridge connections remove google.ana` (see `connections list`)', 2);
    const { removeConnection } = await import('../sync/connect/remove.ts');
    const { run } = await open(args);
    const r = run((store) => removeConnection(store, name));
    if (!r.ok) throw new UserError(r.reason, 1);
    args.io.out(`${r.account} removed; its credentials are forgotten and its events stay in place`);
    return 0;
  },
};
