// A user and password written into a URL (`https://user:pw@host`) are a secret wherever the URL is
// printed: in a log line, a command's output, check-config --print or /api/status.

// scheme://userinfo@ : the userinfo runs to the first '@' before any '/', '?', '#', space or quote.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;

/** `https://user:pw@host` becomes `https://****@host`, wherever it is in the text. */
export function maskUrlUserinfo(text: string): string {
  return text.includes('@') && text.includes('://') ? text.replace(USERINFO, '$1****@') : text;
}
