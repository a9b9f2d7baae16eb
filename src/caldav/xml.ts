// A namespace-aware XML tree, just enough for WebDAV answers. Servers pick their own prefixes
// (`d:`, `D:`, none at all, iCloud declares xmlns on every element), so elements are matched by
// namespace URI and local name, never by prefix. sax in strict mode knows only the five XML
// entities and never reads a DTD, so an answer cannot make us fetch or expand anything.
import sax from 'sax';

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALSERVER = 'http://calendarserver.org/ns/';

export interface XmlElement {
  ns: string;
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside this element, CDATA included, untrimmed. */
  text: string;
}

export class XmlError extends Error {
  override name = 'XmlError';
}

/** The root element of a document; throws XmlError on anything that is not well-formed XML. */
export function parseXml(source: string): XmlElement {
  const parser = sax.parser(true, { xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.onerror = (e) => {
    failure ??= e;
  };
  parser.onopentag = (tag) => {
    const q = tag as sax.QualifiedTag;
    const attributes: Record<string, string> = {};
    for (const a of Object.values(q.attributes)) if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attributes[a.local] = a.value;
    const el: XmlElement = { ns: q.uri, name: q.local, attributes, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(el);
    else root ??= el;
    stack.push(el);
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  const addText = (t: string) => {
    const el = stack.at(-1);
    if (el) el.text += t;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  try {
    parser.write(source).close();
  } catch (e) {
    failure ??= e as Error;
  }
  if (failure || !root) throw new XmlError(`not well-formed XML: ${(failure?.message ?? 'no root element').split('\n')[0]}`);
  return root;
}

export const is = (el: XmlElement | undefined, ns: string, name: string): boolean => el?.ns === ns && el.name === name;

export function child(el: XmlElement | undefined, ns: string, name: string): XmlElement | undefined {
  return el?.children.find((c) => is(c, ns, name));
}

export function childrenOf(el: XmlElement | undefined, ns: string, name: string): XmlElement[] {
  return el?.children.filter((c) => is(c, ns, name)) ?? [];
}

/** The trimmed text of a child element, or null when it is absent or empty. */
export function childText(el: XmlElement | undefined, ns: string, name: string): string | null {
  const text = child(el, ns, name)?.text.trim();
  return text ? text : null;
}

/** XML text escaping for values we put into request bodies. */
export function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
