// The status page's HTML: readiness first, then every error in one list, then each part's section,
// then the feeds to subscribe to. Pure: data in, markup out.
import type { OverallReadiness } from '../health-routes.ts';
import { html, trusted, type Html } from './html.ts';
import type { FeedUrls } from '../../feeds/feed-urls.ts';
import { collectProblems, humanise, isPlainObject, renderObject, renderValue, type Problem } from './render-value.ts';
import { STYLE } from './style.ts';

export interface PageInput {
  readiness: OverallReadiness;
  /** The status document, already redacted. */
  status: Record<string, unknown>;
  feeds: (FeedUrls & { qrSvg: string })[];
  now: number;
  refreshSeconds: number;
}

function readinessBanner(r: OverallReadiness): Html {
  return html`<section class="banner ${r.ready ? 'ready' : 'unready'}" id="readiness">
<h2>${r.ready ? 'Ready' : 'Not ready'}</h2>
${r.reasons.length || r.warnings.length ? html`<ul>${r.reasons.map((t) => html`<li class="reason">${t}</li>`)}${r.warnings.map((t) => html`<li class="warning">Warning: ${t}</li>`)}</ul>` : ''}
</section>`;
}

function problemList(problems: Problem[], now: number): Html {
  if (problems.length === 0) return html``;
  return html`<section class="problems" id="errors"><h2>Errors</h2><ul>${problems.map((p) => {
    const key = p.path[p.path.length - 1] ?? '';
    return html`<li><b>${p.path.map(humanise).join(' › ')}</b>: ${renderValue(key, p.value, now)}</li>`;
  })}</ul></section>`;
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

export function renderStatusPage(input: PageInput): string {
  const { status, now } = input;
  const scalars = Object.entries(status).filter(([, v]) => !isPlainObject(v) && !Array.isArray(v));
  const sections = Object.entries(status).filter(([, v]) => isPlainObject(v) || Array.isArray(v));
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${input.refreshSeconds}">
<meta name="robots" content="noindex">
<title>${input.readiness.ready ? '' : '⚠ '}calbridge status</title>
<style>${trusted(STYLE)}</style></head>
<body><main>
<header><h1>calbridge</h1>${scalars.map(([k, v]) => html`<span class="muted">${humanise(k)}: ${renderValue(k, v, now)}</span>`)}</header>
${readinessBanner(input.readiness)}
${problemList(collectProblems(Object.fromEntries(sections)), now)}
${sections.map(([name, value]) => html`<section class="part" id="section-${name}"><h2>${humanise(name)}</h2>${isPlainObject(value) ? renderObject(value, now) : renderValue(name, value, now)}</section>`)}
${feedCards(input.feeds)}
<p class="muted">This page refreshes every ${input.refreshSeconds} seconds.</p>
</main></body></html>`;
  return page.value;
}
