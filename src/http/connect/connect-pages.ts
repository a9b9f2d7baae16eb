// The pages a person sees while connecting a calendar (docs/reference/http.md, "Connect"). Pure: data
// in, markup out; every value escaped; no secret is ever part of one (a CalDAV form is never filled
// back with the password).
import { html } from '../status-page/html.ts';
import type { Messages } from '../../core/i18n/index.ts';
import type { ConnectKind } from '../../store/connect-store.ts';
import { hidden, page } from './page.ts';
import type { PickableCalendar } from './providers.ts';

export const CALDAV_SERVICES = ['icloud', 'fastmail', 'nextcloud', 'other'] as const;
export type CalDavService = (typeof CALDAV_SERVICES)[number];

export interface CalDavFormInput {
  action: string;
  token: string;
  error?: string;
  service?: CalDavService;
  address?: string;
  username?: string;
}

export function calDavFormPage(m: Messages, f: CalDavFormInput): string {
  const w = m.connect.caldav;
  const chosen = f.service ?? 'icloud';
  return page(
    m,
    m.connect.title,
    html`<section><p>${m.connect.intro(m.connect.provider.caldav)}</p>
${f.error ? html`<p class="error" role="alert">${f.error}</p>` : ''}
<form method="post" action="${f.action}">${hidden('token', f.token)}
<fieldset><legend><b>${w.service}</b></legend>${CALDAV_SERVICES.map(
      (s) => html`<div class="choice"><input type="radio" id="s-${s}" name="service" value="${s}"${s === chosen ? html` checked` : ''}>
<label for="s-${s}"><b>${w.services[s].name}</b><span class="muted">${w.services[s].help}</span></label></div>`,
    )}</fieldset>
<label for="address">${w.address}</label><input type="url" id="address" name="address" inputmode="url" autocomplete="url" placeholder="https://" value="${f.address ?? ''}">
<label for="username">${w.username}</label><input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" value="${f.username ?? ''}" required>
<label for="password">${w.password}</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">${w.check}</button></form></section>`,
  );
}

/** `error`: why the last choice was refused (shown above the list, which is offered again). */
export function pickPage(m: Messages, action: string, token: string, calendars: readonly PickableCalendar[], error?: string): string {
  if (calendars.length === 0) return page(m, m.connect.pick.title, html`<section><p class="error">${m.connect.pick.none}</p></section>`);
  const first = calendars.find((c) => c.primary) ?? calendars[0];
  return page(
    m,
    m.connect.pick.title,
    html`<section>${error ? html`<p class="error" role="alert">${error}</p>` : ''}<p>${m.connect.pick.text}</p><form method="post" action="${action}">${hidden('token', token)}
<fieldset>${calendars.map(
      (
        c,
        i,
      ) => html`<div class="choice"><input type="radio" id="c-${i}" name="calendar" value="${c.id}"${c === first ? html` checked` : ''}>
<label for="c-${i}"><b>${c.name}</b>${c.primary ? html`<span class="muted">${m.connect.pick.primary}</span>` : ''}</label></div>`,
    )}</fieldset><button type="submit">${m.connect.pick.confirm}</button></form></section>`,
  );
}

export function donePage(m: Messages, calendarName: string): string {
  return page(m, m.connect.done.title, html`<section><p class="ok">${m.connect.done.text(calendarName)}</p></section>`);
}

export const providerName = (m: Messages, kind: ConnectKind): string => m.connect.provider[kind];
