// The English catalogue: every sentence a person reads (status page, activity, `status`, the demo,
// the 401 page, the default text of events). It defines the key set: every other language is typed
// `Messages`, so a key missing there fails the type check (docs/languages.md says how to add one).
import type { Status } from '../appointment.ts';
import { connectEn } from './connect-en.ts';

/** Where the booking service's changes go. */
export type Output = 'google' | 'caldav' | 'microsoft' | 'feeds';

const andList = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}` : (items[0] ?? '');
const plural = (n: number, one: string, many: string): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export const en = {
  /** A refused sign-in of an account connected on the web (core/sign-in-fix.ts): no command of the config signs it in again. */
  signIn: {
    refusedConnected: (kind: string) =>
      `${{ google: 'Google', microsoft: 'Microsoft', caldav: 'The CalDAV server' }[kind] ?? kind} refused the sign-in of this calendar, connected on the web (access revoked, the sign-in expired or the app password changed)`,
    connectAgain: (kind: string, name: string) =>
      `Connect again: remove it and make a new invite on the status page (Connected calendars), or with \`calbridge connections remove ${kind}.${name}\` and \`calbridge connect invite --target ${kind} --name ${name} --calendar-key KEY\`.`,
    /** Before a connected Google calendar's "connect again": Google's 7-day limit for apps in "Testing". */
    googlePublishFirst:
      'If the OAuth consent screen of connect.google_client\'s Google Cloud project is still in "Testing", Google ends its sign-ins after 7 days: publish it first (Google Cloud console, OAuth consent screen, "Publish app"), or this happens again in a week.',
    /** A connected Google calendar refused 6 to 8 days after it was connected (core/alerts/testing-trap.ts). */
    googleTestingTrap: (days: number) =>
      `Google refused the sign-in of this calendar, connected on the web, ${days} days after it was given: the OAuth app of connect.google_client is in "Testing", whose sign-ins expire after 7 days`,
  },
  /** Alert sentences (docs/reference/behaviour.md, "Alerts"): what broke and what to do; never an upstream's text. */
  alerts: {
    dbWritable:
      'calbridge cannot write its database, so nothing new is stored or mirrored: check the disk space and the file permissions of database.path, then restart calbridge.',
    bookingApi: (lastOk: string | null) =>
      `The booking API is failing${lastOk === null ? '' : ` (last good answer ${lastOk})`}, so new and changed appointments are not read: check booking.base_url, booking.token and whether the booking service is up.`,
    bookingBreaker: (held: number) =>
      `The deletion breaker holds ${plural(held, 'appointment', 'appointments')} the booking service says are gone, more than poll.max_gone_per_hour: check the booking service; if they are really gone, run \`calbridge sync --allow-mass-changes\` once.`,
    googleAuth:
      "Google refused calbridge's sign-in (access revoked, or the sign-in expired): run `calbridge google auth` again to connect the Google account.",
    googleTestingTrap: (days: number) =>
      `Google refused calbridge's sign-in ${days} days after it was given: the OAuth app is in "Testing", whose sign-ins expire after 7 days. ` +
      'Publish the OAuth consent screen (Google Cloud console, OAuth consent screen, "Publish app") and run `calbridge google auth` again.',
    googleServiceAccount:
      'Google refused the service account: check the key file in google.credentials.service_account_file and that each calendar is shared with the service account.',
    caldavAuth:
      'The CalDAV server refused the username and password: make a new app password for the account and put it in caldav.password.',
    microsoftAuth:
      "Microsoft refused calbridge's sign-in: run `calbridge microsoft auth` again (delegated sign-in), or check the app's client secret and admin consent (app-only).",
    writes: (n: number, target: 'google' | 'caldav' | 'microsoft') =>
      `${plural(n, 'appointment', 'appointments')} could not be written to ${{ google: 'Google Calendar', caldav: 'the CalDAV calendar', microsoft: 'Outlook' }[target]} and are being retried: the reasons are on the status page.`,
    breaker: (target: 'google' | 'caldav' | 'microsoft', deletes: number, mirrored: number) =>
      `The ${{ google: 'Google', caldav: 'CalDAV', microsoft: 'Microsoft' }[target]} breaker holds ${plural(deletes, 'deletion', 'deletions')} of ${mirrored} mirrored events: check the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once.`,
    push: (address: string) =>
      `No Google push channel is open (renewing them fails), so changes made in Google Calendar arrive only on the reverse sync's schedule: check that ${address} is reachable from the internet over https.`,
    microsoftPush:
      "Renewing the Microsoft Graph change notifications fails, so changes made in Outlook arrive only on the delta query's schedule: check that public_url is reachable from the internet over https.",
    recovered: (problem: string) => `Resolved: ${problem.replace(/\.$/, '')}. Nothing more to do.`,
    statusLink: (url: string) => `Status: ${url}`,
  },
  /** BCP 47 tag for Intl and luxon (dates, numbers) and <html lang>. */
  tag: 'en',
  /** Each booking status in words, as `{status_label}` and the page show it. */
  status: {
    CONFIRMED: 'Confirmed',
    PENDING: 'Pending',
    ATTENDED: 'Attended',
    IN_PROGRESS: 'In progress',
    NO_SHOW: 'No-show',
    CANCELED: 'Cancelled',
    CANCELED_CLIENT: 'Cancelled by the client',
    CANCELED_GOOGLE: 'Cancelled from the calendar',
    PENDING_PAYMENT: 'Pending payment',
    PENDING_FORM: 'Pending form',
    PENDING_COMPANIONS: 'Pending companions',
  } satisfies Record<Status, string>,
  /** A status the catalogue does not know (a newer booking service): never the raw code. */
  unknownStatus: 'Other status',
  /** The default description of a feed event: one line each, empty ones left out. */
  event: {
    services: 'Services',
    professional: 'Professional',
    person: 'Client',
    email: 'E-mail',
    phone: 'Phone',
    code: 'Code',
    status: 'Status',
    busy: 'Busy',
    untitled: 'Appointment',
  },
  /** Where a change went or came from, in a few words (activity badges, the demo's terminal). */
  direction: {
    'booking-to-targets': (outputs: string) => `booking → ${outputs}`,
    'google-to-booking': 'Google → booking',
    'caldav-to-booking': 'CalDAV → booking',
    'microsoft-to-booking': 'Outlook → booking',
    reverted: 'reverted',
    refused: 'refused',
  },
  /** The outputs as the badge names them: "Google/feeds". */
  outputs: { google: 'Google', caldav: 'CalDAV', microsoft: 'Outlook', feeds: 'feeds' },
  /** Activity lines: what happened to an appointment. `targets`: where booking changes go, "Google and the feeds". */
  activity: {
    and: andList,
    /** "removed from Google and the feeds": only the outputs that are configured. */
    removedFrom: (targets: readonly Output[]) =>
      `removed from ${andList(targets.map((t) => ({ google: 'Google', caldav: 'the CalDAV calendar', microsoft: 'Outlook', feeds: 'the feeds' })[t]))}`,
    leftScope: (removed: string) => `left the mirrored scope (poll.filters) → ${removed}`,
    goneAtBooking: (removed: string) => `no longer at the booking service → ${removed}`,
    seenCancelled: (at: string) => `seen cancelled, ${at}`,
    booked: (at: string, status: string) => `booked for ${at}${status ? ` (${status})` : ''}`,
    back: (at: string, status: string) => `back at the booking service, ${at}${status ? ` (${status})` : ''}`,
    cancelledAtBooking: (status: string, removed: string) => `${status} at the booking service → ${removed}`,
    movedAtBooking: (at: string, was: string) => `moved at the booking service to ${at} (was ${was})`,
    statusChanged: (status: string, was: string) => `now ${status} at the booking service (was ${was})`,
    detailsChanged: 'details changed at the booking service',
    imported: (count: number, from: string, to: string) =>
      `imported ${plural(count, 'new appointment', 'new appointments')} from the booking service in one poll, between ${from} and ${to}`,
    backfill: (count: number, place: string) => `added ${plural(count, 'appointment', 'appointments')} to ${place}`,
    googlePlace: (list: string) => `Google Calendar${list}`,
    caldavPlace: (many: boolean, list: string) => `the CalDAV calendar${many ? 's' : ''}${list}`,
    microsoftPlace: (many: boolean, list: string) => `the Outlook calendar${many ? 's' : ''}${list}`,
    writes: {
      insert: 'added to Google',
      update: 'updated in Google',
      delete: 'removed from Google',
      move: 'moved to another Google calendar',
      other: 'written to Google',
    },
    places: { google: 'Google', caldav: 'the CalDAV calendar', microsoft: 'Outlook' },
    wins: 'the booking service wins',
    needsTime: 'an appointment needs a time',
    // A person's change the booking service cannot take (only a new start flows back), put back once.
    putBack: {
      'not-a-time': (place: string) => ({
        text: `made all-day or repeating in ${place} → put back`,
        why: 'an appointment is one booking at one time',
      }),
      length: (place: string) => ({
        text: `made longer or shorter in ${place} → put back to its booked length`,
        why: 'the booking service takes a new start, not a new length',
      }),
      title: (place: string) => ({
        text: `renamed in ${place} → title put back`,
        why: 'the title comes from the booking; change it there',
      }),
      description: (place: string) => ({
        text: `description changed in ${place} → put back`,
        why: 'the description comes from the booking; change it there',
      }),
      status: (place: string) => ({
        text: `status changed in ${place} → put back`,
        why: 'the status comes from the booking; change it there',
      }),
    },
    // calbridge's own write whose answer never came, seen after the booking service moved on: no person moved it.
    earlierWrite: (place: string, to: string) =>
      `${place} showed an earlier time written by calbridge${to ? ` (${to})` : ''}, not a person's move → set to the booked time`,
    movedMeanwhile: (place: string, to: string) =>
      `moved in ${place}${to ? ` to ${to}` : ''}, but the booking service moved it meanwhile → moved back`,
    deletedChangedMeanwhile: (place: string) => `deleted in ${place}, but the booking service changed it meanwhile → recreated`,
    deletedRecreated: (place: string) => `deleted in ${place} → recreated`,
    stillBooked: 'it is still booked at the booking service; on_delete: recreate',
    deletedLeft: (place: string) => `deleted in ${place} → left deleted`,
    keeps: 'the booking service keeps it; on_delete: ignore',
    deletedAlreadyCancelled: (place: string) => `deleted in ${place}; it was already cancelled at the booking service`,
    deletedCancelled: (place: string) => `deleted in ${place} → cancelled at the booking service`,
    onDeleteCancel: 'on_delete: cancel',
    deletedGoneToo: (place: string) => `deleted in ${place}; it is gone at the booking service too`,
    deletedRefused: (place: string) => `deleted in ${place} → the booking service refused to cancel it → recreated`,
    refused: 'refused',
    deletedNotTaken: (place: string) => `deleted in ${place} → the booking service did not take the cancellation → recreated`,
    movedAlreadyThere: (place: string, to: string) => `moved in ${place} to ${to}; the booking service already had that time`,
    movedRescheduled: (place: string, to: string) => `moved in ${place} to ${to} → rescheduled at the booking service`,
    movedDropped: (place: string, to: string, cancelled: boolean) =>
      `moved in ${place} to ${to}, but it is ${cancelled ? 'cancelled' : 'gone'} at the booking service → nothing sent`,
    movedPutBack: (place: string, to: string) => `moved in ${place} to ${to}, but it already shows the booked time again → nothing sent`,
    movedTakenBack: (place: string, to: string) => `moved in ${place} to ${to}, then moved back before it was sent → nothing sent`,
    movedOnto: (taken: readonly string[], to: string) => `moved onto ${taken.join(' and ')}'s slot (${to}) → moved back`,
    movedTaken: (place: string, to: string) => `moved in ${place} to ${to}, a taken slot → moved back`,
    slotTaken: 'the slot is taken at the booking service; on_conflict: revert',
    movedRefused: (place: string, to: string) => `moved in ${place} to ${to} → refused by the booking service → moved back`,
    movedNotTaken: (place: string, to: string) => `moved in ${place} to ${to} → the booking service did not take it → moved back`,
  },
  /** "3 min ago", "in 2 h", "just now". */
  relative: {
    now: 'just now',
    ago: (n: number, unit: 's' | 'min' | 'h' | 'd') => `${n} ${unit} ago`,
    in: (n: number, unit: 's' | 'min' | 'h' | 'd') => `in ${n} ${unit}`,
  },
  page: {
    title: 'calbridge status',
    timesIn: (zone: string) => `Times in ${zone}`,
    allWell: 'All is well',
    problems: (n: number) => (n === 1 ? '1 problem needs attention' : `${n} problems need attention`),
    ready: 'Ready: webhooks and feeds are being served.',
    notReady: 'Not ready: webhooks and feeds are refused until this is fixed.',
    appointments: (n: number) => plural(n, 'appointment', 'appointments'),
    lastPoll: (ago: string) => `last poll ${ago}`,
    inGoogle: (n: number, pending: number) => `${plural(n, 'event', 'events')} in Google${pending ? `, ${pending} to write` : ''}`,
    inCalDav: (n: number, pending: number) => `${plural(n, 'event', 'events')} in CalDAV${pending ? `, ${pending} to write` : ''}`,
    pushBack: 'moves in Google come back at once (push)',
    scheduleBack: 'moves in Google come back on the schedule',
    caldavBack: 'moves in the CalDAV calendar come back on the schedule',
    inOutlook: (n: number, pending: number) => `${plural(n, 'event', 'events')} in Outlook${pending ? `, ${pending} to write` : ''}`,
    outlookPushBack: 'moves in Outlook come back at once (change notifications)',
    outlookScheduleBack: 'moves in Outlook come back on the schedule',
    feeds: (n: number) => plural(n, 'feed', 'feeds'),
    activity: 'Recent activity',
    nothingYet: 'Nothing has happened yet.',
    agenda: 'Today and tomorrow',
    agendaLead: (where: readonly string[]) =>
      `Each appointment as the booking service has it, and as ${andList(where)} show${where.length > 1 ? '' : 's'} it now.`,
    eachFeed: 'each feed',
    today: 'Today',
    tomorrow: 'Tomorrow',
    noAppointments: 'No appointments.',
    more: (n: number) => `… and ${n} more`,
    time: 'Time',
    appointment: 'Appointment',
    shown: {
      ok: 'shown',
      busy: 'as busy',
      cancelled: 'as cancelled',
      none: 'not shown',
      at: (t: string) => `at ${t}`,
      failed: 'not written, retrying',
      waiting: 'not there',
    },
    subscribe: 'Subscribe to a feed',
    noFeeds: 'No feeds are configured.',
    feedsTitle: 'Feeds',
    scan: 'Scan a code with a phone, or open the webcal link on a device with a calendar app.',
    noQr: 'Open the webcal link on a device with a calendar app (this demo listens on this machine only, so a phone cannot open a code).',
    qrLabel: (name: string) => `QR code of the webcal link of ${name}`,
    subscribeButton: 'Subscribe (webcal)',
    details: 'Details',
    reported: (n: number) => `Errors the parts reported (${n})`,
    refreshes: (s: number) => `This page refreshes every ${s} seconds.`,
    yes: 'yes',
    no: 'no',
    none: 'none',
  },
  /** Problems on the status page and in `status`: what is wrong, and what to do. */
  problems: {
    notReady: (why: string) => `calbridge cannot take traffic: ${why}`,
    notReadyTodo: 'Webhooks and feeds are refused until this is fixed; the log says more.',
    detailsBelow: 'The details are below.',
    googleAuth: 'Google refused calbridge’s credentials, so no change reaches Google Calendar.',
    googleAuthTodo:
      'Run `calbridge google auth` on the server to sign in again (an OAuth app left in “Testing” loses its sign-in after 7 days: publish it “In production”), or check the service account key and the calendar’s sharing.',
    googleSaid: (text: string) => `Google said: ${text}`,
    googleFailed: (n: number, codes: string) =>
      `${plural(n, 'appointment', 'appointments')}${codes ? ` (${codes})` : ''} could not be written to Google; calbridge keeps retrying by itself.`,
    googleFailedTodo:
      'If the number does not go down, read Google’s answer and check that the calendar is shared with calbridge’s account with “Make changes to events”.',
    notCaldav: 'caldav.url does not lead to a CalDAV server, so no appointment reaches the CalDAV calendar.',
    notCaldavTodo:
      'Set caldav.url to the server’s DAV root (docs/caldav-setup.md gives it for iCloud, Nextcloud and Fastmail) and restart calbridge.',
    noCalendar: (name: string) => `The CalDAV account has no calendar “${name}”, so no appointment reaches it.`,
    noCalendarTodo:
      'Set that entry of caldav.calendars to one of the calendars listed below (its name as the apps show it, or its URL) and restart calbridge.',
    caldavFailed: (n: number, codes: string) =>
      `${plural(n, 'appointment', 'appointments')}${codes ? ` (${codes})` : ''} could not be written to the CalDAV calendar; calbridge keeps retrying by itself.`,
    caldavFailedTodo:
      'If the number does not go down, read the server’s answer and check that the account may change events in that calendar.',
    caldavSaid: (text: string) => `The CalDAV server said: ${text}`,
    caldavAuth: 'The CalDAV server refused the username or password, so no appointment reaches the CalDAV calendar.',
    caldavAuthTodo:
      'Check caldav.username and caldav.password: iCloud and Fastmail need an app-specific password, not the account password (resetting an Apple ID password revokes every app-specific one), and so does Nextcloud with two-factor login.',
    microsoftAuth: 'Microsoft refused calbridge’s sign-in, so no change reaches Outlook.',
    microsoftAuthTodo:
      'For a person’s own account (delegated), run `calbridge microsoft auth` on the server to sign in again. For app-only, check microsoft.credentials.client_secret (secrets expire: make a new one under Certificates & secrets in Entra ID) and that an admin granted consent (docs/microsoft-setup.md).',
    microsoftSaid: (text: string) => `Microsoft said: ${text}`,
    microsoftFailed: (n: number, codes: string) =>
      `${plural(n, 'appointment', 'appointments')}${codes ? ` (${codes})` : ''} could not be written to Outlook; calbridge keeps retrying by itself.`,
    microsoftFailedTodo:
      'If the number does not go down, read Microsoft’s answer and check that the app (or the person signed in) may change events in that mailbox’s calendar.',
  },
  /** The parts' readiness warnings people meet most, told in the locale (the others as the part said them). */
  warnings: {
    bookingSilentYet: 'The booking API has not answered successfully yet.',
    bookingSilentSince: (when: string) => `The booking API has not answered successfully since ${when}.`,
    bookingTodo: 'Check booking.base_url and booking.token, and that the booking service is up.',
    googleSilent: (minutes: number) => `Google has not answered successfully for over ${minutes} minutes.`,
    caldavSilent: (minutes: number) => `The CalDAV server has not answered successfully for over ${minutes} minutes.`,
    microsoftSilent: (minutes: number) => `Microsoft Graph has not answered successfully for over ${minutes} minutes.`,
    silentTodo: 'Check the network and the service’s own status page; the details are below.',
    webhooksSilent: (n: number) => `Webhooks seem silent: the last two polls found ${n} changes that no webhook announced.`,
    webhooksTodo: 'Check `calbridge webhooks list` and the booking service’s webhook settings.',
    deliveriesFailed: (n: number) => `${plural(n, 'webhook delivery', 'webhook deliveries')} failed.`,
    movesFailed: (n: number, place: string) => `${plural(n, 'move', 'moves')} made in ${place} could not be sent to the booking service.`,
    reverseFailed: (place: string) => `Changes made in ${place} could not be read in the last round.`,
    noPush: 'No Google push channel is open: moves made in Google come back on the schedule only.',
    detailsTodo: 'The details are below.',
  },
  /** The 401 page a browser gets. */
  unauthorized: {
    title: 'calbridge: sign in',
    noToken:
      'This page opens for no one yet: server.admin_token is not set. Set it (16 characters or more), restart calbridge, and open this page again with it as the password; or run `calbridge status` on the server.',
    needToken: 'This page needs the admin token: open it again and give server.admin_token as the password (any user name).',
  },
  /** `calbridge status` in words. */
  statusCommand: {
    allWell: 'calbridge: all is well.',
    problems: (n: number) => `calbridge: ${n === 1 ? '1 problem needs' : `${n} problems need`} attention.`,
    todo: 'Fix',
    counts: 'Counts',
    lastActivity: 'Latest activity',
    at: (when: string, zone: string) => `as of ${when} (${zone})`,
    json: 'For every detail: calbridge status --json.',
    detailsJson: 'the details are in calbridge status --json.',
  },
  /** The demo's terminal. */
  demo: {
    intro: (count: number, seconds: number) =>
      `calbridge demo: a simulated booking service with ${count} appointments that keep changing (every ${seconds} s).`,
    open: 'Open:',
    statusPage: 'status page',
    google: 'Google',
    googleNote: '(the simulated Google calendars)',
    statusJson: 'status JSON',
    feed: 'feed',
    subscribe: 'subscribe',
    phone: 'on a phone',
    metrics: 'metrics',
    people: (seconds: number) =>
      `Google is simulated: every appointment is mirrored there, and every ${seconds} s someone moves or deletes an event in it.`,
    nobody: 'Google is simulated: every appointment is mirrored there; nobody edits it (--people-interval 0).',
    realGoogle: 'Google is the one of --config: simulated appointments are written to its mapped calendars.',
    googleOff: 'Google is off in the --config file.',
    temporary: (dir: string) => `The database is temporary (${dir}) and is removed at exit. Stop with Ctrl-C.`,
    feedName: 'Demo clinic',
    outlook: 'Outlook',
    outlookNote: '(the simulated Outlook calendars)',
    outlookPeople: (seconds: number) =>
      `Outlook (Microsoft 365) is simulated too: every appointment is mirrored there, and every ${seconds} s someone moves or deletes an event in it.`,
    outlookNobody: 'Outlook (Microsoft 365) is simulated too: every appointment is mirrored there; nobody edits it (--people-interval 0).',
    /** A simulated person's edit; `app` is "Google" or "Outlook". */
    movedFree: (app: string, summary: string, from: string, to: string) =>
      `someone in ${app} drags “${summary}” from ${from} to ${to}, a free slot`,
    movedTaken: (app: string, summary: string, from: string, onto: string, to: string) =>
      `someone in ${app} drags “${summary}” from ${from} onto “${onto}” at ${to}`,
    deleted: (app: string, summary: string, at: string) => `someone in ${app} deletes “${summary}” (${at})`,
    otherCalendar: 'Other appointments',
    professionals: 'Professionals, each in a calendar account of their own (simulated):',
    professional: (app: string, account: string, calendar: string) => `${app}, ${account}: the appointments of “${calendar}”`,
    invite: 'connect',
    inviteNote: (person: string, calendar: string) =>
      `A “connect your calendar” link for ${person} (“${calendar}”), also on the status page: open it, allow, pick a calendar and confirm; it is mirrored within a pass. It works once.`,
    clinicAccount: 'The clinic’s account: every appointment',
    ownAccount: (person: string) => `${person}’s own account`,
    invitedAccount: (person: string) => `${person}’s own account (connected by the invite on the status page)`,
    invitedOffice: (calendar: string) => `Office · ${calendar}`,
    consentTitle: 'Sign in with Google (simulated)',
    consentAsks: (person: string) =>
      `You are signed in as ${person}. The calbridge demo asks to see the list of your calendars and to change the events of the one you pick.`,
    consentAllow: 'Allow',
    inviteTitle: 'Connect your calendar (demo)',
    inviteText: (person: string, calendar: string) =>
      `The demo made a one-time link for ${person}, whose appointments are in “${calendar}”. Open it, allow the simulated Google, pick a calendar and confirm: her appointments are then mirrored there within a pass.`,
    inviteUsed: (person: string) => `${person} connected her calendar: it is listed under Connected calendars, and mirrored.`,
  },
  /** The connect pages and the status page's connections page. */
  connect: connectEn,
  /** The demo's simulated Google Calendar page. */
  demoGoogle: {
    title: 'Simulated Google Calendar · calbridge demo',
    heading: 'Google Calendar',
    simulated: '(simulated)',
    link: 'Simulated Google Calendar →',
    statusPage: 'Status page',
    about: (events: number, calendars: number, names: string) =>
      `What calbridge mirrored into the demo's simulated Google calendars: ${plural(events, 'event', 'events')} in ${plural(calendars, 'calendar', 'calendars')} (${names}). Simulated people move and delete these events now and then; the status page's activity says what calbridge did about each.`,
    time: 'Time',
    event: 'Event',
    calendar: 'Calendar',
    tentative: 'tentative',
    today: 'Today, ',
    noUpcoming: 'No upcoming events.',
    earlier: (n: number) => `Earlier days (${plural(n, 'event', 'events')})`,
    refreshes: (s: number) => `This page refreshes every ${s} seconds.`,
  },
  /** The demo's simulated Outlook calendar page (the same look as Google's). */
  demoOutlook: {
    title: 'Simulated Outlook calendar · calbridge demo',
    heading: 'Outlook calendar',
    simulated: '(simulated)',
    link: 'Simulated Outlook calendar →',
    statusPage: 'Status page',
    about: (events: number, calendars: number, names: string) =>
      `What calbridge mirrored into the demo's simulated Outlook (Microsoft 365): ${plural(events, 'event', 'events')} in ${plural(calendars, 'calendar', 'calendars')} (${names}). Simulated people move and delete these events now and then; the status page's activity says what calbridge did about each.`,
    time: 'Time',
    event: 'Event',
    calendar: 'Calendar',
    tentative: 'tentative',
    today: 'Today, ',
    noUpcoming: 'No upcoming events.',
    earlier: (n: number) => `Earlier days (${plural(n, 'event', 'events')})`,
    refreshes: (s: number) => `This page refreshes every ${s} seconds.`,
  },
};

/** The key set every language fills in. */
export type Messages = typeof en;
