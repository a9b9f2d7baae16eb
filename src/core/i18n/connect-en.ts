// The connect pages (docs/reference/http.md, "Connect") and the status page's connections page, in
// English. A part of en.ts (its `connect` key): connect-pt-BR.ts is typed by it.

export const connectEn = {
  title: 'Connect your calendar',
  provider: { google: 'Google', microsoft: 'Microsoft', caldav: 'CalDAV' },
  intro: (provider: string) =>
    `calbridge will put your appointments into one of your ${provider} calendars and keep them up to date. You choose the calendar; calbridge changes nothing else.`,
  continueWith: (provider: string) => `Continue with ${provider}`,
  gone: {
    title: 'This link does not work',
    text: 'This link was used already, has expired, or was never made. Ask whoever sent it for a new one.',
  },
  refused: {
    title: 'This sign-in was refused',
    text: 'This answer does not belong to a sign-in that calbridge is waiting for (it was used already or comes from elsewhere). Open your link again.',
  },
  failed: {
    title: 'The sign-in did not work',
    text: (provider: string) => `${provider} did not let calbridge in. Open your link again and allow access to your calendar.`,
    declined: 'Access was not allowed, so nothing was connected. Open your link again if you change your mind.',
  },
  stale: 'This form is out of date. Open your link again.',
  pick: {
    title: 'Choose a calendar',
    text: 'calbridge will add your appointments to this calendar and keep them up to date.',
    none: 'This account has no calendar that calbridge may change. Make one (or ask for the right to change one), then open your link again.',
    primary: '(main calendar)',
    confirm: 'Connect this calendar',
    /** The picked calendar is written already by another account (sync/connect/calendar-taken.ts). */
    taken: (calendar: string) =>
      `“${calendar}” already gets appointments from calbridge through another account, and two accounts writing one calendar would overwrite each other's events. Choose another calendar, or ask whoever sent you the link to take that calendar out of calbridge first.`,
  },
  done: {
    title: 'Connected',
    text: (calendar: string) => `Your appointments will appear in “${calendar}” within a few minutes. You can close this page.`,
  },
  caldav: {
    service: 'Your calendar service',
    services: {
      icloud: {
        name: 'iCloud',
        help: 'Use an app-specific password: make one at appleid.apple.com, under Sign-In and Security, App-Specific Passwords.',
      },
      fastmail: {
        name: 'Fastmail',
        help: 'Use an app password: make one in Fastmail under Settings, Privacy & Security, App passwords, with calendar (CalDAV) access.',
      },
      nextcloud: {
        name: 'Nextcloud',
        help: "Use an app password: make one in Nextcloud under Settings, Security, Devices & sessions. Give your Nextcloud's address below.",
      },
      other: { name: 'Another CalDAV server', help: "Give the server's CalDAV address below, and an app password if it offers them." },
    },
    address: 'Server address (Nextcloud or another server)',
    username: 'User name (often your e-mail address)',
    password: 'App password',
    check: 'Check and list my calendars',
    errors: {
      auth: 'The server refused this user name and password. Use an app password, not the password of your account.',
      not_caldav: 'No calendar server answered at that address. Check it, or choose your service by name.',
      unreachable: 'The server did not answer. Check the address and try again.',
      inside:
        'That address is inside the network calbridge runs in, and a calendar connected by a link may not use one. Ask whoever runs calbridge to connect this server for you, or to allow private addresses.',
      none: 'This account has no calendar for events.',
      address: 'Give the server address, starting with https://.',
      missing: 'Fill in the user name and the app password.',
    },
  },
  admin: {
    title: 'Connected calendars',
    link: 'Connected calendars →',
    back: '← Status page',
    none: 'No calendar is connected yet.',
    account: 'Account',
    calendarKey: 'Booking calendar',
    calendar: 'Calendar',
    since: 'Connected',
    remove: 'Remove',
    removeNote: 'Removing an account stops its writes and forgets its credentials; the events already in its calendar stay.',
    removed: (name: string) => `${name} was removed.`,
    invite: 'Make an invite',
    inviteNote: 'A link for one person to connect their own calendar. It works once.',
    target: 'Calendar service',
    name: 'Name (letters a-z, digits, -)',
    days: 'Valid for (days)',
    make: 'Make the link',
    made: (until: string) => `Send this link to the person. It works once, until ${until}.`,
    disabled: 'Connecting calendars is off: set connect.enabled: true (with server.secret_key) in the config.',
    refused: (reason: string) => `No invite was made: ${reason}`,
  },
};
