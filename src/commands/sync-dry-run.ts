// `sync --dry-run`: prints what a `sync` now would do, per appointment, and writes nothing anywhere
// (the pass runs on a scratch copy with every outward write held back: wiring/dry-run.ts).
import { DateTime } from 'luxon';
import type { Config } from '../config/schema.ts';
import type { AppointmentPlan, FieldChange, StoreChange } from '../sync/dry-run/plan-report.ts';
import type { HeldWrite } from '../sync/dry-run/planned.ts';
import type { DryRun } from '../wiring/dry-run.ts';

const when = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('ccc d LLL yyyy HH:mm');

function fieldLine(c: FieldChange, zone: string): string {
  return c.field === 'start' || c.field === 'end'
    ? `${c.field} ${when(c.from, zone)} → ${when(c.to, zone)}`
    : `${c.field} ${c.from || '(none)'} → ${c.to || '(none)'}`;
}

function storeLine(s: StoreChange, zone: string): string {
  switch (s.kind) {
    case 'new':
      return `new, ${s.status}`;
    case 'gone':
      return `gone${s.reason ? ` (${s.reason})` : ''}: leaves every calendar and feed`;
    case 'back':
      return 'back from gone';
    case 'changed':
      return s.fields.length ? s.fields.map((f) => fieldLine(f, zone)).join('; ') : 'details changed';
  }
}

function writeLine(w: HeldWrite, zone: string): [string, string] {
  if (w.kind === 'target') {
    const shows = w.shows ? `: "${w.shows.title}" at ${when(w.shows.start, zone)}` : '';
    return [w.target, `${w.op} event ${w.eventId} in ${w.calendarId}${shows}`];
  }
  if (w.op === 'reschedule') return ['booking', `reschedule to ${when(Number(w.detail), zone)}`];
  if (w.op === 'webhook') return ['webhooks', String(w.detail)];
  return ['booking', w.op === 'cancel' ? 'cancel' : `set status ${w.detail}`];
}

function appointmentLines(p: AppointmentPlan, zone: string): string[] {
  const row = (what: string, text: string) => `  ${what.padEnd(10)}${text}`;
  return [
    `${when(p.start, zone)}  ${p.label}  (${p.key})`,
    ...(p.store ? [row('store', storeLine(p.store, zone))] : []),
    ...p.writes.map((w) => row(...writeLine(w, zone))),
    ...(p.feeds.length ? [row('feeds', p.feeds.map((f) => `${f.feed}: ${f.change}`).join(', '))] : []),
  ];
}

const OP_ORDER: HeldWrite['op'][] = ['create', 'update', 'delete', 'reschedule', 'cancel', 'status', 'webhook'];

/** "2 create, 1 delete" of the held writes to one place. */
function opCounts(writes: HeldWrite[]): string {
  return OP_ORDER.flatMap((op) => {
    const n = writes.filter((w) => w.op === op).length;
    return n ? [`${n} ${op}`] : [];
  }).join(', ');
}

function summary(run: DryRun): string {
  const plans = run.appointments;
  const stored = plans.flatMap((p) => (p.store ? [p.store.kind] : []));
  const parts: string[] = [];
  if (stored.length) {
    const by = (k: string) => stored.filter((s) => s === k).length;
    parts.push(
      `store ${stored.length} appointment${stored.length === 1 ? '' : 's'} (${by('new')} new, ${by('changed')} changed, ${by('gone')} gone${by('back') ? `, ${by('back')} back` : ''})`,
    );
  }
  const writes = [...plans.flatMap((p) => p.writes), ...run.other];
  const places = [...new Set(writes.map((w) => (w.kind === 'target' ? w.target : 'booking service')))];
  for (const place of places) {
    parts.push(`${place}: ${opCounts(writes.filter((w) => (w.kind === 'target' ? w.target : 'booking service') === place))}`);
  }
  const feeds = [...new Set(plans.flatMap((p) => p.feeds.map((f) => f.feed)))];
  if (feeds.length) parts.push(`feeds that change: ${feeds.join(', ')}`);
  return parts.length ? `In all: ${parts.join('; ')}.` : 'A sync now would change nothing.';
}

/** The whole printout; every line is also what a person reads in a terminal. */
export function dryRunText(run: DryRun, config: Config): string[] {
  const zone = config.booking.timezone;
  const lines = ['Dry run: nothing was written anywhere.'];
  const failed = run.steps.filter((s) => s.result.status === 'failed' || (s.result.failed ?? 0) > 0);
  if (run.appointments.length || run.other.length) {
    lines.push('A sync now would do this:', '');
    for (const p of run.appointments) lines.push(...appointmentLines(p, zone), '');
    for (const w of run.other) lines.push(writeLine(w, zone).join('  '), '');
  }
  lines.push(summary(run));
  if (failed.length) {
    lines.push('', 'Some steps could not be planned in full; a sync now would meet the same problems:');
    for (const s of failed) lines.push(`  ${s.job.padEnd(16)}${s.result.status.padEnd(9)}${s.result.summary ?? ''}`.trimEnd());
  }
  return lines;
}
