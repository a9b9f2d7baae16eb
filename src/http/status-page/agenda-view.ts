// Today's and tomorrow's appointments as each target shows them. A table on a wide screen; on a
// phone each row becomes a card, each cell labelled with its column (CSS only, see style.ts).
import { html, type Html } from './html.ts';
import type { AgendaDay } from './agenda.ts';

function day(d: AgendaDay): Html {
  if (d.rows.length === 0) return html`<h3>${d.title}</h3><p class="muted">No appointments.</p>`;
  return html`<h3>${d.title}</h3><table class="agenda">
<thead><tr><th>Time</th><th>Appointment</th>${d.targets.map((t) => html`<th>${t}</th>`)}</tr></thead>
<tbody>${d.rows.map(
    (r) => html`<tr${r.cancelled ? html` class="cancelled"` : ''}><td data-label="Time" class="time">${r.time}</td><td data-label="Appointment"><b>${r.label}</b> ${r.name ?? ''}<span class="sub">${[r.calendar, r.status].filter(Boolean).join(' · ')}</span></td>${r.shown.map(
      (s, i) => html`<td data-label="${d.targets[i] ?? ''}" class="shown ${s.state}">${s.state === 'ok' ? '✓ ' : ''}${s.text}</td>`,
    )}</tr>`,
  )}</tbody></table>${d.more ? html`<p class="muted">&hellip; and ${d.more} more</p>` : ''}`;
}

/** `outputs`: the configured targets, e.g. ['CalDAV', 'feeds'] (default: Google and the feeds). */
export function agendaSection(days: AgendaDay[], outputs: readonly string[] = ['Google', 'feeds']): Html {
  const shown = outputs.map((o) => (o === 'feeds' ? 'each feed' : o));
  const where = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? 'each feed');
  return html`<section id="agenda"><h2>Today and tomorrow</h2>
<p class="muted">Each appointment as the booking service has it, and as ${where} show${shown.length > 1 ? '' : 's'} it now.</p>${days.map(day)}</section>`;
}
