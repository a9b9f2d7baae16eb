// A 207 Multi-Status answer (RFC 4918 §13) read into plain records: one per DAV:response, with the
// properties the server found (2xx propstat) apart from those it did not.
import { CalDavError } from './errors.ts';
import { child, childrenOf, childText, DAV, is, parseXml, XmlError, type XmlElement } from './xml.ts';

export interface DavResponse {
  /** As the server wrote it: a path or an absolute URL, percent-encoded. */
  href: string;
  /** The response's own status (sync-collection reports a removed member as 404); null when absent. */
  status: number | null;
  /** Properties in a 2xx propstat. */
  found: XmlElement[];
}

export interface Multistatus {
  responses: DavResponse[];
  /** RFC 6578: the collection's new token, at the top level of a sync-collection answer. */
  syncToken: string | null;
}

/** "HTTP/1.1 404 Not Found" → 404. */
function statusCode(line: string | null): number | null {
  const m = /^\S+\s+(\d{3})/.exec(line?.trim() ?? '');
  return m ? Number(m[1]) : null;
}

export function parseMultistatus(body: string): Multistatus {
  const root = parseXml(body);
  if (!is(root, DAV, 'multistatus')) throw new XmlError(`expected a DAV:multistatus, got <${root.name}>`);
  const responses = childrenOf(root, DAV, 'response').flatMap((r): DavResponse[] => {
    const href = childText(r, DAV, 'href');
    if (!href) return [];
    const found = childrenOf(r, DAV, 'propstat')
      .filter((ps) => {
        const code = statusCode(childText(ps, DAV, 'status'));
        return code !== null && code >= 200 && code < 300;
      })
      .flatMap((ps) => child(ps, DAV, 'prop')?.children ?? []);
    return [{ href, status: statusCode(childText(r, DAV, 'status')), found }];
  });
  return { responses, syncToken: childText(root, DAV, 'sync-token') };
}

/** A 207 answer read, or a CalDavError naming the request when it is not one. */
export function multistatusOf(what: string, answer: { status: number; body: string }): Multistatus {
  if (answer.status !== 207) throw new CalDavError('invalid', `${what}: expected 207 Multi-Status, got ${answer.status}`, answer.status);
  try {
    return parseMultistatus(answer.body);
  } catch (e) {
    if (e instanceof XmlError) throw new CalDavError('invalid', `${what}: ${e.message}`, answer.status);
    throw e;
  }
}

export function prop(r: DavResponse, ns: string, name: string): XmlElement | undefined {
  return r.found.find((p) => is(p, ns, name));
}

export function propText(r: DavResponse, ns: string, name: string): string | null {
  const text = prop(r, ns, name)?.text.trim();
  return text ? text : null;
}

/** The DAV:href values inside a property (current-user-principal, calendar-home-set). */
export function propHrefs(r: DavResponse, ns: string, name: string): string[] {
  return childrenOf(prop(r, ns, name), DAV, 'href').flatMap((h) => (h.text.trim() ? [h.text.trim()] : []));
}
