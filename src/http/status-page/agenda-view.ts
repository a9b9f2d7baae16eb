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
  )}</tbody></table>${d.more ? html`<p class="muted">… and ${d.more} more</p>` : ''}`;
}

export function agendaSection(days: AgendaDay[]): Html {
  return html`<section id="agenda"><h2>Today and tomorrow</h2>
<p class="muted">Each appointment as the booking service has it, and as Google and each feed show it now.</p>${days.map(day)}</section>`;
}
