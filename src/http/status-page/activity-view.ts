// The recent-activity list of the status page: one line per change, newest first, with its
// direction and, when it did not go as asked, the reason. Data from the status document's section.
import { DateTime } from 'luxon';
import { html, type Html } from './html.ts';
import type { ActivitySection } from '../../status/status-document.ts';
import { DIRECTION_LABELS } from '../../core/activity-words.ts';

const DIRECTIONS: Record<string, string> = DIRECTION_LABELS;

const text = (v: string | null): string | null => (v !== null && v !== '' ? v : null);

/** "10:31:05" today, "Mon 13 Jan 10:31" before, in the business's zone. */
function stamp(iso: string, now: number, zone: string): string {
  const t = DateTime.fromISO(iso, { zone });
  if (!t.isValid) return iso;
  return t.hasSame(DateTime.fromMillis(now, { zone }), 'day') ? t.toFormat('HH:mm:ss') : t.setLocale('en').toFormat('ccc d LLL HH:mm');
}

/** `outputs`: where the booking service's changes go here, e.g. ['CalDAV', 'feeds']. */
export function activityList(section: ActivitySection | undefined, now: number, zone: string, outputs?: readonly string[]): Html {
  const labels = outputs?.length ? { ...DIRECTIONS, 'booking-to-targets': `booking → ${outputs.join('/')}` } : DIRECTIONS;
  const recent = section?.recent ?? [];
  const body = recent.length
    ? html`<ol class="activity">${recent.map((e) => {
        const direction = e.direction;
        const at = e.at;
        const reason = text(e.reason);
        return html`<li class="entry dir-${direction}"><time datetime="${at}">${stamp(at, now, zone)}</time><span class="badge">${labels[direction] ?? direction}</span><span class="what"><b>${text(e.appointment) ?? ''}</b> ${text(e.summary) ?? ''}${reason ? html`<span class="why">${reason}</span>` : ''}</span></li>`;
      })}</ol>`
    : html`<p class="muted">Nothing has happened yet.</p>`;
  return html`<section id="activity"><h2>Recent activity</h2>${body}</section>`;
}
