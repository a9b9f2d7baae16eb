// /status/connections (admin only: the guard on /status/* in app.ts): the calendars connected on the
// web, each with a remove button, and a form that makes an invite. Plain forms, no script; each
// form carries a token bound to the page (core/form-token.ts), so a page elsewhere cannot post to it
// with the browser's remembered password.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from '../../log.ts';
import type { Messages } from '../../core/i18n/index.ts';
import type { FormTokens } from '../../core/form-token.ts';
import type { Connection, ConnectKind } from '../../store/connect-store.ts';
import type { InviteRequest, InviteResult } from '../../sync/connect/invite.ts';
import type { Removal } from '../../sync/connect/remove.ts';
import { html, type Html } from '../status-page/html.ts';
import { hidden, page, PAGE_HEADERS } from './page.ts';

export interface ConnectionsPageDeps {
  messages: Messages;
  forms: FormTokens;
  log: Logger;
  /** booking.timezone, for the dates shown. */
  zone: string;
  /** Whether connect is enabled: without it the invite form is a sentence saying how to turn it on. */
  enabled: boolean;
  /** The kinds `connect:` can make invites for. */
  kinds: readonly ConnectKind[];
  list(): Connection[];
  invite(r: InviteRequest): InviteResult;
  remove(name: string): Removal;
}

const FORM_LIMIT = bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.text('too large', 413) });

export function connectionsPageRoutes(d: ConnectionsPageDeps): Hono {
  const app = new Hono();
  const m = d.messages;
  const w = m.connect.admin;
  const log = d.log.child({ module: 'connect' });
  const token = d.forms.token('connections', 'page');
  const when = (ms: number) =>
    new Intl.DateTimeFormat(m.tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: d.zone }).format(new Date(ms));

  const render = (c: Context, message?: Html, status: 200 | 400 = 200) => {
    const list = d.list();
    const table = list.length
      ? html`<table><thead><tr><th>${w.account}</th><th>${w.calendarKey}</th><th>${w.calendar}</th><th>${w.since}</th><th></th></tr></thead><tbody>${list.map(
          (
            x,
          ) => html`<tr><td><b>${x.kind}.${x.name}</b></td><td><code>${x.calendarKey}</code></td><td>${x.calendarName}</td><td>${when(x.createdAt)}</td>
<td><form method="post" action="/status/connections/remove">${hidden('token', token)}${hidden('name', `${x.kind}.${x.name}`)}<button class="quiet" type="submit">${w.remove}</button></form></td></tr>`,
        )}</tbody></table><p class="muted">${w.removeNote}</p>`
      : html`<p class="muted">${w.none}</p>`;
    const form = d.enabled
      ? html`<form method="post" action="/status/connections/invite">${hidden('token', token)}
<label for="target">${w.target}</label><select id="target" name="target">${d.kinds.map((k) => html`<option value="${k}">${m.connect.provider[k]}</option>`)}</select>
<label for="calendar_key">${w.calendarKey}</label><input type="text" id="calendar_key" name="calendar_key" required autocapitalize="none">
<label for="name">${w.name}</label><input type="text" id="name" name="name" pattern="[a-z0-9-]+" autocapitalize="none">
<label for="days">${w.days}</label><input type="number" id="days" name="days" min="1" max="90" value="7">
<button type="submit">${w.make}</button></form>`
      : html`<p class="muted">${w.disabled}</p>`;
    return c.html(
      page(
        m,
        w.title,
        html`<p><a href="/status">${w.back}</a></p>${message ?? ''}<section>${table}</section><section><h2>${w.invite}</h2><p class="muted">${w.inviteNote}</p>${form}</section>`,
      ),
      status,
      PAGE_HEADERS,
    );
  };

  app.get('/status/connections', (c) => render(c));

  app.post('/status/connections/invite', FORM_LIMIT, async (c) => {
    const form = await c.req.parseBody();
    if (!d.forms.check(form.token, 'connections', 'page')) return render(c, html`<p class="error">${m.connect.stale}</p>`, 400);
    const days = typeof form.days === 'string' && form.days.trim() ? `${form.days.trim()}d` : undefined;
    const r = d.invite({
      target: String(form.target ?? ''),
      calendarKey: String(form.calendar_key ?? ''),
      name: typeof form.name === 'string' && form.name.trim() ? form.name : undefined,
      expires: days,
    });
    if (!r.ok) return render(c, html`<p class="error">${w.refused(r.reason)}</p>`, 400);
    log.info({ account: `${r.kind}.${r.name}` }, 'an invite was made on the connections page');
    return render(c, html`<section><p class="ok">${w.made(when(r.expiresAt))}</p><code class="link">${r.url}</code></section>`);
  });

  app.post('/status/connections/remove', FORM_LIMIT, async (c) => {
    const form = await c.req.parseBody();
    if (!d.forms.check(form.token, 'connections', 'page')) return render(c, html`<p class="error">${m.connect.stale}</p>`, 400);
    const r = d.remove(String(form.name ?? ''));
    if (!r.ok) return render(c, html`<p class="error">${r.reason}</p>`, 400);
    log.info({ account: r.account }, 'a connected account was removed on the connections page');
    return render(c, html`<p class="ok">${w.removed(r.account)}</p>`);
  });

  return app;
}
