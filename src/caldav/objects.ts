// One calendar object resource: created with If-None-Match: *, changed and deleted with If-Match on
// its ETag (RFC 4791 §5.3.2, RFC 9110 §13.1), never overwritten blindly. A 412 is an answer here,
// not an error: it tells the caller to read the object and decide.
import { CalDavError } from './errors.ts';
import type { DavHttp } from './http.ts';
import { multistatusOf, propText } from './multistatus.ts';
import type { DavGetResult, DavPrecondition, DavPutResult, DavRemoveResult } from './port.ts';
import { ETAG, XML_CONTENT_TYPE } from './requests.ts';
import { resourceUrl } from './resource-name.ts';
import { DAV } from './xml.ts';

export async function putObject(
  http: DavHttp,
  collection: string,
  key: string,
  ics: string,
  precondition: DavPrecondition,
): Promise<DavPutResult> {
  const condition: Record<string, string> = precondition.kind === 'create' ? { 'if-none-match': '*' } : { 'if-match': precondition.etag };
  const answer = await http.request({
    method: 'PUT',
    url: resourceUrl(collection, key),
    headers: { 'content-type': 'text/calendar; charset=utf-8', ...condition },
    body: ics,
    accept: [412],
  });
  if (answer.status === 412) return precondition.kind === 'create' ? { kind: 'exists' } : { kind: 'changed_remotely' };
  return { kind: 'written', etag: answer.header('etag') ?? null };
}

export async function getObject(http: DavHttp, collection: string, key: string): Promise<DavGetResult> {
  const url = resourceUrl(collection, key);
  const answer = await http.request({ method: 'GET', url, headers: { accept: 'text/calendar' }, accept: [404, 410] });
  if (answer.status === 404 || answer.status === 410) return { kind: 'not_found' };
  const etag = answer.header('etag') ?? (await etagOf(http, url));
  return etag === null ? { kind: 'not_found' } : { kind: 'found', ics: answer.body, etag };
}

/** For a server that sends no ETag with GET: the same value through PROPFIND; null when it is gone by now. */
async function etagOf(http: DavHttp, url: URL): Promise<string | null> {
  const answer = await http.request({
    method: 'PROPFIND',
    url,
    headers: { depth: '0', 'content-type': XML_CONTENT_TYPE },
    body: ETAG,
    accept: [404, 410],
  });
  if (answer.status === 404 || answer.status === 410) return null;
  const first = multistatusOf(`PROPFIND ${url.pathname}`, answer).responses[0];
  const etag = first ? propText(first, DAV, 'getetag') : null;
  // Without an ETag no change could ever be made safely; say so rather than guess.
  if (etag === null)
    throw new CalDavError(
      'invalid',
      `PROPFIND ${url.pathname}: the server keeps no ETag for this object; calbridge needs one to change it safely`,
    );
  return etag;
}

export async function removeObject(http: DavHttp, collection: string, key: string, etag: string): Promise<DavRemoveResult> {
  const answer = await http.request({
    method: 'DELETE',
    url: resourceUrl(collection, key),
    headers: { 'if-match': etag },
    accept: [404, 410, 412],
  });
  if (answer.status === 412) return { kind: 'changed_remotely' };
  if (answer.status === 404 || answer.status === 410) return { kind: 'not_found' };
  return { kind: 'removed' };
}
