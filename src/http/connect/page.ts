// The frame of every connect page and of the connections page: server.locale, phone first (one
// column, large touch targets), no script, nothing loaded from elsewhere.
import { html, trusted, type Html, type HtmlPart } from '../status-page/html.ts';
import type { Messages } from '../../core/i18n/index.ts';

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#667085;--bg:#f6f7f9;--card:#fff;--line:#d0d5dd;--link:#0b5cad;--bad:#b42318;--bad-bg:#fdecea;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#98a2b3;--bg:#0f1115;--card:#181b21;--line:#3b424d;--link:#6cb6ff;--bad:#ff7b72;--bad-bg:#3a1d1d;--ok:#4ac26b}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:break-word}
main{max-width:34rem;margin:0 auto;padding:1rem}
h1{font-size:1.35rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem;margin:0 0 1rem}
p{margin:.4rem 0}
a{color:var(--link);overflow-wrap:anywhere}
.muted{color:var(--muted);font-size:.92rem}
.error{background:var(--bad-bg);color:var(--bad);border-radius:8px;padding:.6rem .8rem;font-weight:600}
.ok{color:var(--ok);font-weight:600}
label{display:block;margin:.8rem 0 .25rem;font-weight:600}
input[type=text],input[type=password],input[type=url],input[type=number],select{width:100%;font:inherit;padding:.65rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}
fieldset{border:0;margin:0;padding:0}
.choice{display:flex;gap:.6rem;align-items:flex-start;padding:.7rem .2rem;border-bottom:1px solid var(--line)}
.choice input{margin-top:.3rem;width:1.2rem;height:1.2rem;flex:none}
.choice label{margin:0;font-weight:normal}
.choice b{display:block}
button,.button{display:block;width:100%;margin:1rem 0 0;padding:.8rem 1rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;color:#fff;background:#0b5cad;border:0;border-radius:8px;cursor:pointer}
button.quiet{display:inline-block;width:auto;margin:0;padding:.4rem .8rem;background:var(--bad)}
table{width:100%;border-collapse:collapse}
td,th{text-align:left;padding:.4rem .3rem;border-bottom:1px solid var(--line);vertical-align:top}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.link{display:block;padding:.6rem;border:1px dashed var(--line);border-radius:8px}
@media (max-width:40rem){table,tbody,tr,td{display:block}thead{display:none}tr{border-bottom:1px solid var(--line);padding:.4rem 0}td{border:0;padding:.1rem 0}}
`;

/** Never cached (a page may carry a form token), never framed, no scripts at all, no referrer to elsewhere. */
export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function page(m: Messages, title: string, body: HtmlPart): string {
  return html`<!doctype html>
<html lang="${m.tag}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${title} · calbridge</title><style>${trusted(STYLE)}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`.value;
}

/** A page that says one thing: a link that does not work, a refused sign-in. */
export function notice(m: Messages, title: string, text: string): string {
  return page(m, title, html`<section><p>${text}</p></section>`);
}

export const hidden = (name: string, value: string): Html => html`<input type="hidden" name="${name}" value="${value}">`;
