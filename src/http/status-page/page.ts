// The status page's HTML, for people first: whether all is well (each problem in a sentence with what
// to do), then what happened recently, then today's and tomorrow's appointments as Google and the
// feeds show them, then the feeds to subscribe to, then every detail, folded. Pure: data in, markup out.
import type { OverallReadiness } from '../../core/readiness.ts';
import { html, trusted, type Html } from './html.ts';
import type { FeedUrls } from '../../feeds/feed-urls.ts';
import { collectProblems, humanise, renderValue, type Moment, type Problem } from './render-value.ts';
import { statusDocument, targetSection, type StatusDocument } from '../../status/status-document.ts';
import type { z } from 'zod';
import type { PageProblem } from './problems.ts';
import { activityList } from './activity-view.ts';
import type { AgendaDay } from './agenda.ts';
import { agendaSection } from './agenda-view.ts';
import { STYLE } from './style.ts';
import { relativeTime } from './relative-time.ts';
import { ENGLISH, type Voice } from '../../core/activity-words.ts';
import type { Messages } from '../../core/i18n/index.ts';

/** A page of its own linked from the header (the demo's simulated Google calendar). */
export interface PageLink {
  href: string;
  label: string;
}

/** A note of the demo's own under the health (its "connect your calendar" invite): a title, a sentence, maybe a link. */
export interface PageNotice {
  title: string;
  text: string;
  link?: string;
}

export interface PageInput {
  readiness: OverallReadiness;
  problems: PageProblem[];
  /** The status document, already redacted. */
  status: StatusDocument;
  agenda: AgendaDay[];
  /** `qrSvg` empty: no code (the demo listening on this machine only: no phone could open it). */
  feeds: (FeedUrls & { qrSvg: string })[];
  links: PageLink[];
  notice?: PageNotice | undefined;
  /** server.locale, and where the booking service's changes go (activity's badge, the agenda's sentence). */
  voice?: Voice;
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

/** The few numbers that say the bridge is alive: appointments, the last poll, each calendar target, moves coming back (the page and `status`). */
export function facts(status: StatusDocument, feeds: number, now: number, m: Messages): string[] {
  const out: string[] = [];
  const ingest = status.ingest;
  if (ingest) {
    // Cancelled and gone ones are in no calendar: the rest is what the calendars and the feeds show.
    out.push(m.page.appointments(ingest.appointments.active + ingest.appointments.done));
    const polled = ingest.poll.last_success_at;
    if (polled !== null) out.push(m.page.lastPoll(relativeTime(Date.parse(polled), now, m)));
  }
  for (const t of Object.values(status.targets)) {
    const reverse = t.reverse_sync;
    // With several accounts each count says whose (`google.ana: ...`); the single form's reads as before.
    const whose = t.account === `${t.kind}.default` ? '' : `${t.account}: `;
    if (t.kind === 'google') {
      out.push(whose + m.page.inGoogle(t.mirrored, t.pending));
      if (reverse.enabled) out.push(reverse.push?.enabled ? m.page.pushBack : m.page.scheduleBack);
    } else if (t.kind === 'caldav') {
      out.push(whose + m.page.inCalDav(t.mirrored, t.pending));
      if (reverse.enabled) out.push(m.page.caldavBack);
    } else if (t.kind === 'microsoft') {
      out.push(whose + m.page.inOutlook(t.mirrored, t.pending));
      // At once only while Graph holds a subscription to notify us by.
      const notified = reverse.enabled && reverse.push?.enabled === true && reverse.push.channels_active > 0;
      if (reverse.enabled) out.push(notified ? m.page.outlookPushBack : m.page.outlookScheduleBack);
    }
  }
  out.push(m.page.feeds(feeds));
  // How moves come back is said once, however many accounts share it.
  return [...new Set(out)];
}

function health(input: PageInput): Html {
  const { problems, readiness } = input;
  const m = (input.voice ?? ENGLISH).m;
  const title = problems.length === 0 ? m.page.allWell : m.page.problems(problems.length);
  const traffic = readiness.ready ? m.page.ready : m.page.notReady;
  return html`<section class="health ${problems.length ? 'bad' : 'ok'}" id="health">
<h2>${title}</h2><p class="muted" id="readiness">${traffic}</p>
<p class="facts">${facts(input.status, input.feeds.length, input.now, m).join(' · ')}</p>
${
  problems.length
    ? html`<ol class="problems">${problems.map(
        (p) =>
          html`<li><p class="what">${prose(p.text)}</p>${p.todo ? html`<p class="todo">${prose(p.todo)}</p>` : ''}${p.detail ? html`<p class="detail">${p.detail}</p>` : ''}</li>`,
      )}</ol>`
    : ''
}
</section>`;
}

function feedCards(feeds: PageInput['feeds'], m: Messages): Html {
  if (feeds.length === 0)
    return html`<section id="subscribe"><h2>${m.page.feedsTitle}</h2><p class="muted">${m.page.noFeeds}</p></section>`;
  const codes = feeds.some((f) => f.qrSvg !== '');
  return html`<section id="subscribe"><h2>${m.page.subscribe}</h2>
<p class="muted">${codes ? m.page.scan : m.page.noQr}</p>
<div class="feeds">${feeds.map(
    (f) => html`<div class="feed"><h3>${f.name}</h3>
${f.qrSvg ? html`<div class="qr" role="img" aria-label="${m.page.qrLabel(f.name)}">${trusted(f.qrSvg)}</div>` : ''}
<a class="subscribe" href="${f.webcal}">${m.page.subscribeButton}</a>
<p><a class="https" href="${f.https}">${f.https}</a></p></div>`,
  )}</div></section>`;
}

function reportedErrors(problems: Problem[], at: Moment, m: Messages): Html {
  if (problems.length === 0) return html``;
  return html`<details id="errors"><summary>${m.page.reported(problems.length)}</summary><ul>${problems.map((p) => {
    const key = p.path[p.path.length - 1] ?? '';
    return html`<li><b>${[p.path[0] ?? '', ...p.path.slice(1).map(humanise)].join(' › ')}</b>: ${renderValue(key, p.value, at)}</li>`;
  })}</ul></details>`;
}

/** A section of the details: its heading, its value and the schema that describes it. */
interface DetailSection {
  id: string;
  title: string;
  value: unknown;
  schema: z.ZodType;
}

/** Each section of the document, each calendar target account its own. */
function detailSections(status: StatusDocument): DetailSection[] {
  const shape = statusDocument.shape as Record<string, z.ZodType>;
  return Object.entries(status).flatMap(([name, value]): DetailSection[] => {
    if (SHOWN_ABOVE.has(name) || value === null || typeof value !== 'object') return [];
    if (name !== 'targets') return [{ id: name, title: humanise(name), value, schema: shape[name]! }];
    return Object.values(status.targets).map((t) => ({
      id: t.account,
      title: t.account === `${t.kind}.default` ? humanise(t.kind) : `${humanise(t.kind)} (${t.account.slice(t.kind.length + 1)})`,
      value: t,
      schema: targetSection,
    }));
  });
}

function details(status: StatusDocument, at: Moment, m: Messages): Html {
  const sections = detailSections(status);
  const scalars = Object.entries(status).filter(([, v]) => v === null || typeof v !== 'object');
  const shape = statusDocument.shape as Record<string, z.ZodType>;
  const problems = sections.flatMap((s) => collectProblems(s.value, [s.title]));
  return html`<section id="details" lang="en"><h2 lang="${m.tag}">${m.page.details}</h2>
<p class="muted">${scalars.map(([k, v], i) => html`${i ? ' · ' : ''}${humanise(k)}: ${renderValue(k, v, at, 0, shape[k])}`)}</p>
${reportedErrors(problems, at, m)}
${sections.map((s) => html`<details class="part" id="section-${s.id}"><summary>${s.title}</summary>${renderValue(s.id, s.value, at, 0, s.schema)}</details>`)}
</section>`;
}

export function renderStatusPage(input: PageInput): string {
  const { status, now } = input;
  const voice = input.voice ?? ENGLISH;
  const m = voice.m;
  const page = html`<!doctype html>
<html lang="${m.tag}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${input.refreshSeconds}">
<meta name="robots" content="noindex">
<title>${input.problems.length ? '⚠ ' : ''}${m.page.title}</title>
<style>${trusted(STYLE)}</style></head>
<body><main>
<header><h1>calbridge</h1><span class="muted">${m.page.timesIn(input.zone)}</span>${input.links.map((l) => html`<a class="link" href="${l.href}">${l.label}</a>`)}</header>
${health(input)}
${input.notice ? html`<section id="demo-invite"><h2>${input.notice.title}</h2><p>${input.notice.text}</p>${input.notice.link ? html`<p><a class="invite" href="${input.notice.link}">${input.notice.link}</a></p>` : ''}</section>` : ''}
${activityList(status.activity, now, input.zone, voice)}
${agendaSection(input.agenda, voice)}
${feedCards(input.feeds, m)}
${details(status, { now, zone: input.zone }, m)}
<p class="muted">${m.page.refreshes(input.refreshSeconds)}</p>
</main></body></html>`;
  return page.value;
}
