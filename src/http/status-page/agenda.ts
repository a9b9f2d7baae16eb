// Today's and tomorrow's appointments as each target shows them: Google and CalDAV (what calbridge
// last wrote there) and every feed (whether its filters take the appointment). Read from the database.
import { DateTime } from 'luxon';
import type { Config } from '../../config/schema.ts';
import { isCancelled } from '../../core/appointment.ts';
import { messagesFor, statusLabel, type Messages } from '../../core/i18n/index.ts';
import type { AppointmentStore, StoredAppointment } from '../../store/appointment-store.ts';
import type { LinkStore } from '../../store/link-store.ts';
import { placeInFeed } from '../../feeds/feed-filter.ts';
import { rowOf } from '../../feeds/members.ts';

/** ok: shown as booked; differs: shown at another time; waiting: not there yet; failed: the write keeps failing; none: not shown. */
export type Shown = { state: 'ok' | 'differs' | 'waiting' | 'failed' | 'none'; text: string };

export interface AgendaRow {
  time: string;
  label: string;
  name: string | null;
  calendar: string | null;
  status: string;
  cancelled: boolean;
  /** One per target, in the order of `AgendaDay.targets`. */
  shown: Shown[];
}

export interface AgendaDay {
  title: string;
  targets: string[];
  rows: AgendaRow[];
  /** Rows left out past the cap. */
  more: number;
}

export interface AgendaDeps {
  config: Config;
  appointments: AppointmentStore;
  /** Absent when Google is off. */
  links?: LinkStore;
  /** Absent when CalDAV is off: what calbridge last wrote to the CalDAV calendar. */
  caldavLinks?: LinkStore;
  /** Absent when Microsoft is off: what calbridge last wrote to Outlook. */
  microsoftLinks?: LinkStore;
}

/** A busy day of a large business still makes a page a phone can load. */
const MAX_ROWS = 150;

/** What a calendar target (Google, CalDAV, Outlook) shows: the time calbridge last wrote there. */
function inCalendar(s: StoredAppointment, links: LinkStore, zone: string, m: Messages): Shown {
  const a = s.appointment;
  const link = links.get(a.key);
  const hhmm = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
  if (link?.present && link.writtenStart !== null) {
    return link.writtenStart === a.start
      ? { state: 'ok', text: hhmm(link.writtenStart) }
      : { state: 'differs', text: m.page.shown.at(hhmm(link.writtenStart)) };
  }
  if (isCancelled(a.status)) return { state: 'none', text: m.page.shown.none };
  if (link?.lastError) return { state: 'failed', text: m.page.shown.failed };
  return { state: 'waiting', text: m.page.shown.waiting };
}

function inFeed(s: StoredAppointment, feed: Config['feeds'][number], m: Messages): Shown {
  const row = rowOf(s);
  const place = placeInFeed(row.facts, row.gone, feed);
  if (place === 'show') return { state: 'ok', text: feed.privacy === 'busy' ? m.page.shown.busy : m.page.shown.ok };
  if (place === 'cancelled') return { state: 'none', text: m.page.shown.cancelled };
  return { state: 'none', text: m.page.shown.none };
}

export function agenda(deps: AgendaDeps, now: number): AgendaDay[] {
  const zone = deps.config.booking.timezone;
  const m = messagesFor(deps.config.server.locale);
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  const targets = [
    ...(deps.links ? ['Google'] : []),
    ...(deps.caldavLinks ? ['CalDAV'] : []),
    ...(deps.microsoftLinks ? ['Outlook'] : []),
    ...deps.config.feeds.map((f) => f.name),
  ];
  return [0, 1].map((offset) => {
    const day = today.plus({ days: offset });
    const stored = deps.appointments.listInWindow(day.toMillis(), day.plus({ days: 1 }).toMillis());
    const rows = stored.slice(0, MAX_ROWS).map((s): AgendaRow => {
      const a = s.appointment;
      const t = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
      return {
        time: `${t(a.start)}–${t(a.end)}`,
        // The code people search for; an appointment without one is named by its time alone.
        label: a.searchCode ?? '',
        name: a.person.fullName,
        calendar: a.calendar.name,
        status: statusLabel(m, a.status),
        cancelled: isCancelled(a.status),
        shown: [
          ...(deps.links ? [inCalendar(s, deps.links, zone, m)] : []),
          ...(deps.caldavLinks ? [inCalendar(s, deps.caldavLinks, zone, m)] : []),
          ...(deps.microsoftLinks ? [inCalendar(s, deps.microsoftLinks, zone, m)] : []),
          ...deps.config.feeds.map((f) => inFeed(s, f, m)),
        ],
      };
    });
    const title = `${offset === 0 ? m.page.today : m.page.tomorrow}, ${day.setLocale(m.tag).toFormat('cccc d LLLL')}`;
    return { title, targets, rows, more: Math.max(0, stored.length - MAX_ROWS) };
  });
}
