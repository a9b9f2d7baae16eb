// The status page's HTML, for people first: whether all is well (each problem in a sentence with what
// to do), then what happened recently, then today's and tomorrow's appointments as Google and the
// feeds show them, then the feeds to subscribe to, then every detail, folded. Pure: data in, markup out.
import type { OverallReadiness } from '../../core/readiness.ts';
import { html, trusted, type Html } from './html.ts';
import type { FeedUrls } from '../../feeds/feed-urls.ts';
import { collectProblems, humanise, isPlainObject, renderObject, renderValue, type Moment, type Problem } from './render-value.ts';
import type { PageProblem } from './problems.ts';
import { activityList } from './activity-view.ts';
import type { AgendaDay } from './agenda.ts';
import { agendaSection } from './agenda-view.ts';
import { STYLE } from './style.ts';
import { relativeTime } from './relative-time.ts';

/** A page of its own linked from the header (the demo's simulated Google calendar). */
export interface PageLink {
  href: string;
  label: string;
}

export interface PageInput {
  readiness: OverallReadiness;
  problems: PageProblem[];
  /** The status document, already redacted. */
  status: Record<string, unknown>;
  agenda: AgendaDay[];
  feeds: (FeedUrls & { qrSvg: string })[];
  links: PageLink[];
  /** Where the booking service's changes go (activity's badge, the agenda's sentence). */
  outputs?: readonly string[];
  /** booking.timezone: every time on the page is shown there. */
  zone: string;
  now: number;
  refreshSeconds: number;
}

/** Sections shown above in their own form, not again among the details. */
const SHOWN_ABOVE = new Set(['activity']);

/** `calbridge google auth` in a sentence becomes code. */
function prose(text: string): Html {
  return html`${text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}`;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/** The few numbers that say the bridge is alive: appointments, the last poll, Google, moves coming back. */
function facts(status: Record<string, unknown>, feeds: number, now: number): string[] {
  const ingest = obj(status.ingest);
  const google = obj(status.google);
  const reverse = obj(status.reverse_sync);
  const out: string[] = [];
  // Cancelled and gone ones are in no calendar: the rest is what Google and the feeds show.
  const counts = obj(ingest.appointments);
  const shown = (num(counts.active) ?? 0) + (num(counts.done) ?? 0);
  if (num(counts.active) !== undefined) out.push(shown === 1 ? '1 appointment' : `${shown} appointments`);
  const polled = obj(ingest.poll).last_success_at;
  if (typeof polled === 'string') out.push(`last poll ${relativeTime(Date.parse(polled), now)}`);
  const mirrored = num(google.mirrored);
  if (google.enabled === true && mirrored !== undefined) out.push(`${mirrored} events in Google${num(google.pending) ? `, ${String(google.pending)} to write` : ''}`);
  if (reverse.enabled === true) out.push(obj(reverse.push).enabled === true ? 'moves in Google come back at once (push)' : 'moves in Google come back on the schedule');
  const caldav = obj(status.caldav);
  const inCalDav = num(caldav.mirrored);
  if (caldav.enabled === true && inCalDav !== undefined) out.push(`${inCalDav} events in CalDAV${num(caldav.pending) ? `, ${String(caldav.pending)} to write` : ''}`);
  if (caldav.enabled === true && obj(caldav.reverse_sync).enabled === true) out.push('moves in the CalDAV calendar come back on the schedule');
  out.push(feeds === 1 ? '1 feed' : `${feeds} feeds`);
  return out;
}

function health(input: PageInput): Html {
  const { problems, readiness } = input;
  const title = problems.length === 0 ? 'All is well' : problems.length === 1 ? '1 problem needs attention' : `${problems.length} problems need attention`;
  const traffic = readiness.ready ? 'Ready: webhooks and feeds are being served.' : 'Not ready: webhooks and feeds are refused until this is fixed.';
  return html`<section class="health ${problems.length ? 'bad' : 'ok'}" id="health">
<h2>${title}</h2><p class="muted" id="readiness">${traffic}</p>
<p class="facts">${facts(input.status, input.feeds.length, input.now).join(' · ')}</p>
${problems.length ? html`<ol class="problems">${problems.map(
    (p) => html`<li><p class="what">${prose(p.text)}</p>${p.todo ? html`<p class="todo">${prose(p.todo)}</p>` : ''}${p.detail ? html`<p class="detail">${p.detail}</p>` : ''}</li>`,
  )}</ol>` : ''}
</section>`;
}

function feedCards(feeds: PageInput['feeds']): Html {
  if (feeds.length === 0) return html`<section id="subscribe"><h2>Feeds</h2><p class="muted">No feeds are configured.</p></section>`;
  return html`<section id="subscribe"><h2>Subscribe to a feed</h2>
<p class="muted">Scan a code with a phone, or open the webcal link on a device with a calendar app.</p>
<div class="feeds">${feeds.map(
    (f) => html`<div class="feed"><h3>${f.name}</h3>
<div class="qr" role="img" aria-label="QR code of the webcal link of ${f.name}">${trusted(f.qrSvg)}</div>
<a class="subscribe" href="${f.webcal}">Subscribe (webcal)</a>
<p><a class="https" href="${f.https}">${f.https}</a></p></div>`,
  )}</div></section>`;
}

function reportedErrors(problems: Problem[], at: Moment): Html {
  if (problems.length === 0) return html``;
  return html`<details id="errors"><summary>Errors the parts reported (${problems.length})</summary><ul>${problems.map((p) => {
    const key = p.path[p.path.length - 1] ?? '';
    return html`<li><b>${p.path.map(humanise).join(' › ')}</b>: ${renderValue(key, p.value, at)}</li>`;
  })}</ul></details>`;
}

function details(status: Record<string, unknown>, at: Moment): Html {
  const sections = Object.entries(status).filter(([name, v]) => !SHOWN_ABOVE.has(name) && (isPlainObject(v) || Array.isArray(v)));
  const scalars = Object.entries(status).filter(([, v]) => !isPlainObject(v) && !Array.isArray(v));
  return html`<section id="details"><h2>Details</h2>
<p class="muted">${scalars.map(([k, v], i) => html`${i ? ' · ' : ''}${humanise(k)}: ${renderValue(k, v, at)}`)}</p>
${reportedErrors(collectProblems(Object.fromEntries(sections)), at)}
${sections.map(([name, value]) => html`<details class="part" id="section-${name}"><summary>${humanise(name)}</summary>${isPlainObject(value) ? renderObject(value, at) : renderValue(name, value, at)}</details>`)}
</section>`;
}

export function renderStatusPage(input: PageInput): string {
  const { status, now } = input;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${input.refreshSeconds}">
<meta name="robots" content="noindex">
<title>${input.problems.length ? '⚠ ' : ''}calbridge status</title>
<style>${trusted(STYLE)}</style></head>
<body><main>
<header><h1>calbridge</h1><span class="muted">Times in ${input.zone}</span>${input.links.map((l) => html`<a class="link" href="${l.href}">${l.label}</a>`)}</header>
${health(input)}
${activityList(status.activity, now, input.zone, input.outputs)}
${agendaSection(input.agenda, input.outputs)}
${feedCards(input.feeds)}
${details(status, { now, zone: input.zone })}
<p class="muted">This page refreshes every ${input.refreshSeconds} seconds.</p>
</main></body></html>`;
  return page.value;
}
