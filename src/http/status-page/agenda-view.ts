// Today's and tomorrow's appointments as each target shows them. A table on a wide screen; on a
// phone each row becomes a card, each cell labelled with its column (CSS only, see style.ts).
import { html, type Html } from './html.ts';
import type { AgendaDay } from './agenda.ts';
import { ENGLISH, type Voice } from '../../core/activity-words.ts';
import type { Messages } from '../../core/i18n/index.ts';

function day(d: AgendaDay, m: Messages): Html {
  if (d.rows.length === 0) return html`<h3>${d.title}</h3><p class="muted">${m.page.noAppointments}</p>`;
  return html`<h3>${d.title}</h3><table class="agenda">
<thead><tr><th>${m.page.time}</th><th>${m.page.appointment}</th>${d.targets.map((t) => html`<th>${t}</th>`)}</tr></thead>
<tbody>${d.rows.map(
    (r) =>
      html`<tr${r.cancelled ? html` class="cancelled"` : ''}><td data-label="${m.page.time}" class="time">${r.time}</td><td data-label="${m.page.appointment}"><b>${r.label}</b> ${r.name ?? ''}<span class="sub">${[r.calendar, r.status].filter(Boolean).join(' · ')}</span></td>${r.shown.map(
        (s, i) => html`<td data-label="${d.targets[i] ?? ''}" class="shown ${s.state}">${s.state === 'ok' ? '✓ ' : ''}${s.text}</td>`,
      )}</tr>`,
  )}</tbody></table>${d.more ? html`<p class="muted">${m.page.more(d.more)}</p>` : ''}`;
}

/** `voice`: the locale and the configured targets (default: Google and the feeds). */
export function agendaSection(days: AgendaDay[], voice: Voice = ENGLISH): Html {
  const m = voice.m;
  const shown = voice.outputs.map((o) => (o === 'feeds' ? m.page.eachFeed : m.outputs[o]));
  return html`<section id="agenda"><h2>${m.page.agenda}</h2>
<p class="muted">${m.page.agendaLead(shown.length ? shown : [m.page.eachFeed])}</p>${days.map((d) => day(d, m))}</section>`;
}
