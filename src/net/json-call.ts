// The two requests of a sign-in (docs/reference/http.md, "Connect"): a form POST to a token endpoint
// and a JSON GET with the access token just obtained. Both through the outbound client bound to one
// configured origin, no redirect followed (docs/reference/behaviour.md, "Outbound requests").
import { Outbound } from './outbound.ts';

/** A token answer or a calendar list is a few kilobytes; a hundred calendars fit many times over. */
const MAX_BYTES = 1024 * 1024;

export interface JsonAnswer {
  status: number;
  json: Record<string, unknown>;
}

function parsed(text: string | null): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text ?? '');
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function postForm(url: URL, setting: string, form: Record<string, string>): Promise<JsonAnswer> {
  const a = await new Outbound({ origin: url, setting }).send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'calbridge' },
    body: new URLSearchParams(form).toString(),
    timeoutMs: 15_000,
    maxBodyBytes: MAX_BYTES,
  });
  return { status: a.status, json: parsed(a.text) };
}

export async function getJson(url: URL, setting: string, accessToken: string): Promise<JsonAnswer> {
  const a = await new Outbound({ origin: url, setting }).send(url, {
    method: 'GET',
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'calbridge' },
    timeoutMs: 15_000,
    maxBodyBytes: MAX_BYTES,
  });
  return { status: a.status, json: parsed(a.text) };
}
