// Renders any part's status section generically, walking the value beside its schema
// (status/status-document.ts): the schema, not a key's name, says which values are times.
import { html, type Html } from './html.ts';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import { relativeTime } from './relative-time.ts';
import { elementSchema, fieldSchema, isInstant } from '../../status/schema-walk.ts';

type Schema = z.ZodType | undefined;

/** When the page is made, and the zone its times are shown in (booking.timezone). */
export interface Moment {
  now: number;
  zone: string;
}

const MAX_DEPTH = 6;
const MAX_ROWS = 100;
const ACRONYMS: Record<string, string> = {
  caldav: 'CalDAV',
  api: 'API',
  url: 'URL',
  urls: 'URLs',
  ics: 'ICS',
  id: 'ID',
  ids: 'IDs',
  http: 'HTTP',
  https: 'HTTPS',
  qr: 'QR',
  oauth: 'OAuth',
};

/** `last_error`, `lastError`, `last-error` → "Last error". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Keys like last_error, lastError, errors, failed, failed_deliveries. */
export function isErrorKey(key: string): boolean {
  return /error|fail/i.test(key);
}

/** Whether a value under an error key says something is wrong (0, '', [], {} and null say nothing). */
export function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(hasContent);
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renderTime(instant: number, at: Moment): Html {
  const iso = new Date(instant).toISOString();
  const local = DateTime.fromMillis(instant, { zone: at.zone }).toFormat('yyyy-MM-dd HH:mm:ss');
  return html`<time datetime="${iso}" title="${iso}">${relativeTime(instant, at.now)}</time> <span class="muted">${local}</span>`;
}

/** ` class="error"` on a cell whose error-like key holds something. */
function errorClass(key: string, value: unknown): Html | '' {
  return isErrorKey(key) && hasContent(value) ? html` class="error"` : '';
}

function renderTable(rows: Record<string, unknown>[], at: Moment, depth: number, schema: Schema): Html {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const shown = rows.slice(0, MAX_ROWS);
  return html`<div class="scroll"><table>
<thead><tr>${columns.map((c) => html`<th>${humanise(c)}</th>`)}</tr></thead>
<tbody>${shown.map(
    // data-label: on a phone each row becomes a card with its cells labelled (style.ts), so no column is cut off.
    (row) =>
      html`<tr>${columns.map((c) => html`<td data-label="${humanise(c)}"${errorClass(c, row[c])}>${renderValue(c, row[c], at, depth + 1, fieldSchema(schema, row, c))}</td>`)}</tr>`,
  )}</tbody></table></div>${rows.length > MAX_ROWS ? html`<p class="muted">&hellip; and ${rows.length - MAX_ROWS} more</p>` : ''}`;
}

function renderObject(obj: Record<string, unknown>, at: Moment, depth = 0, schema?: Schema): Html {
  const entries = Object.entries(obj);
  if (entries.length === 0) return html`<span class="muted">&mdash;</span>`;
  return html`<dl>${entries.map(([k, v]) => {
    const cls = errorClass(k, v);
    return html`<dt${cls}>${humanise(k)}</dt><dd${cls}>${renderValue(k, v, at, depth + 1, fieldSchema(schema, obj, k))}</dd>`;
  })}</dl>`;
}

/** One value of the status document, under its key, described by `schema` (the document's part it is). */
export function renderValue(key: string, value: unknown, at: Moment, depth = 0, schema?: Schema): Html {
  if (value === null || value === undefined) return html`<span class="muted">&mdash;</span>`;
  if (typeof value === 'boolean') return html`${value ? 'yes' : 'no'}`;
  if (isInstant(schema, value)) return renderTime(Date.parse(value), at);
  if (typeof value === 'number' || typeof value === 'string') return html`<span class="text">${value}</span>`;
  if (depth > MAX_DEPTH) return html`<code>${JSON.stringify(value)}</code>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">none</span>`;
    const each = elementSchema(schema, value);
    if (value.every(isPlainObject)) return renderTable(value, at, depth, each);
    return html`<ul>${value.slice(0, MAX_ROWS).map((v) => html`<li>${renderValue(key, v, at, depth + 1, each)}</li>`)}</ul>`;
  }
  if (isPlainObject(value)) return renderObject(value, at, depth, schema);
  return html`<code>${String(value)}</code>`;
}

export interface Problem {
  path: string[];
  value: unknown;
}

/** Every error-like key with something in it, with its path, for the summary at the top of the page. */
export function collectProblems(value: unknown, path: string[] = []): Problem[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => collectProblems(v, [...path, `#${i + 1}`]));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    isErrorKey(k) && hasContent(v) ? [{ path: [...path, k], value: v }] : collectProblems(v, [...path, k]),
  );
}
