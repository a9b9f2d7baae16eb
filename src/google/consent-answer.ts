// What a person pastes back after Google's consent screen on a machine without a browser (a server,
// a container): the address the browser ended on (http://127.0.0.1:<port>/?code=...&state=..., which
// fails to load there), its query alone, or the bare code. Pure.

export type ConsentAnswer =
  | { kind: 'code'; code: string }
  | { kind: 'error'; error: string }
  /** Not an answer to this consent: say why and keep waiting. */
  | { kind: 'invalid'; reason: string };

export function readConsentAnswer(pasted: string, state: string): ConsentAnswer {
  const text = pasted.trim().replace(/^["'<]|["'>]$/g, '');
  if (text === '') return { kind: 'invalid', reason: 'nothing was pasted' };
  const query = queryOf(text);
  if (!query) {
    // Google's codes have no spaces; a sentence or a stray word is not one.
    if (/\s/.test(text) || text.length < 10)
      return { kind: 'invalid', reason: 'that is neither the address the browser ended on nor a code' };
    return { kind: 'code', code: text };
  }
  const error = query.get('error');
  const code = query.get('code');
  if (!error && !code)
    return { kind: 'invalid', reason: 'that address has no code in it; copy the whole address from the browser after allowing access' };
  // A code from another run of this command (or another person's) must not be taken for this one.
  const given = query.get('state');
  if (given !== null && given !== state)
    return { kind: 'invalid', reason: 'that address belongs to another consent (its state differs); use the URL printed above' };
  return error ? { kind: 'error', error } : { kind: 'code', code: code! };
}

function queryOf(text: string): URLSearchParams | undefined {
  if (/^https?:\/\//i.test(text)) {
    try {
      return new URL(text).searchParams;
    } catch {
      return undefined;
    }
  }
  if (/(^|[?&])(code|error)=/.test(text)) return new URLSearchParams(text.replace(/^[^?]*\?/, ''));
  return undefined;
}
