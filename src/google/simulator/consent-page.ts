// The simulator's consent page, for a person to click (the demo's "connect your calendar"): the
// sign-in request shown as a form with one button, which posts it back and is then consented to as
// the automatic consent would. No script; the words come from whoever starts the simulator, so the
// page speaks their language (the simulator imports nothing of calbridge's).

/** The page's words, and its language tag. */
export interface ConsentWords {
  lang: string;
  title: string;
  /** Who asks: the application's name is told in the sentence. */
  asks: string;
  /** The button. */
  allow: string;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** GET: the page; its form posts the sign-in request, unchanged, to the same address. */
export function consentPage(url: URL, words: ConsentWords): string {
  const fields = [...url.searchParams].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
  return `<!doctype html>
<html lang="${escapeHtml(words.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(words.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;max-width:32rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1a73e8;color:#fff}</style>
</head><body><main>
<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.asks)}</p>
<form method="post" action="${escapeHtml(url.pathname)}">${fields}<button type="submit">${escapeHtml(words.allow)}</button></form>
</main></body></html>`;
}
