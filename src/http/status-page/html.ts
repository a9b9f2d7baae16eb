// A tiny safe-HTML builder: every interpolated value is escaped unless it is already Html, so a
// name like `<script>` from the booking service can only ever show up as text.

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlPart = Html | string | number | boolean | null | undefined | readonly HtmlPart[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

function render(part: HtmlPart): string {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
}

/** Tagged template: `html\`<td>${name}</td>\`` escapes `name`; nested html`` and arrays compose. */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Markup we produced ourselves (e.g. the QR code SVG from the uqr package). */
export function trusted(markup: string): Html {
  return new Html(markup);
}
