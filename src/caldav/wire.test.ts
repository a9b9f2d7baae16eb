// What servers send, as they send it: XML with any prefixes, error bodies, status codes; and the
// names and specs we turn into URLs. Pure functions, table by table.
import { describe, expect, it } from 'vitest';
import { matchCalendar, parseSpec } from './calendar-match.ts';
import { type CalDavError, errorFromAnswer, MAX_RETRY_AFTER_MS } from './errors.ts';
import { parseMultistatus, propHrefs, propText } from './multistatus.ts';
import type { CalendarCollection } from './port.ts';
import { isMember, keyOfHref, resourceUrl } from './resource-name.ts';
import { CALDAV, DAV, parseXml, XmlError } from './xml.ts';

describe('XML from servers', () => {
  const bodies = {
    'prefixed D:':
      '<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a/</D:href><D:propstat><D:prop><D:displayname>Clinic</D:displayname></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>',
    'default namespace':
      '<multistatus xmlns="DAV:"><response><href>/a/</href><propstat><prop><displayname>Clinic</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>',
    'xmlns on every element (iCloud)':
      '<multistatus xmlns="DAV:"><response xmlns="DAV:"><href xmlns="DAV:">/a/</href><propstat><prop><displayname xmlns="DAV:"><![CDATA[Clinic]]></displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>',
  };
  for (const [name, body] of Object.entries(bodies)) {
    it(`reads a multistatus written with ${name}`, () => {
      const [r] = parseMultistatus(body).responses;
      expect(r && propText(r, DAV, 'displayname')).toBe('Clinic');
    });
  }

  it('keeps properties a server did not find apart from those it found', () => {
    const body =
      '<d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:response><d:href>/a/</d:href>' +
      '<d:propstat><d:prop><d:displayname>A</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>' +
      '<d:propstat><d:prop><d:sync-token/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response></d:multistatus>';
    const [r] = parseMultistatus(body).responses;
    expect(r?.found.map((p) => p.name)).toEqual(['displayname']);
  });

  it('reads a calendar home on another host, as iCloud returns it', () => {
    const body =
      '<multistatus xmlns="DAV:"><response xmlns="DAV:"><href>/9870654/principal/</href><propstat><prop>' +
      '<calendar-home-set xmlns="urn:ietf:params:xml:ns:caldav"><href xmlns="DAV:">https://p37-caldav.icloud.com:443/9870654/calendars/</href></calendar-home-set>' +
      '</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>';
    const [r] = parseMultistatus(body).responses;
    const [home] = r ? propHrefs(r, CALDAV, 'calendar-home-set') : [];
    expect(new URL(home!, 'https://caldav.icloud.com/').href).toBe('https://p37-caldav.icloud.com/9870654/calendars/');
  });

  it('expands no entity a document declares (no XXE, no billion laughs)', () => {
    const attack =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:multistatus xmlns:d="DAV:"><d:href>&x;</d:href></d:multistatus>';
    expect(() => parseXml(attack)).toThrow(XmlError);
  });

  it('refuses what is not XML, or not a multistatus', () => {
    expect(() => parseMultistatus('<html><body>Login</body>')).toThrow(XmlError);
    expect(() => parseMultistatus('<d:error xmlns:d="DAV:"/>')).toThrow(/expected a DAV:multistatus/);
  });
});

describe('error answers', () => {
  const now = Date.UTC(2026, 0, 1);
  const answer = (status: number, body = '', headers: Record<string, string> = {}) => ({
    status,
    body,
    header: (name: string) => new Headers(headers).get(name) ?? undefined,
  });
  const cases: [string, ReturnType<typeof answer>, Partial<CalDavError>][] = [
    ['401', answer(401), { kind: 'auth', status: 401 }],
    ['429 with Retry-After seconds', answer(429, '', { 'retry-after': '120' }), { kind: 'rate_limited', retryAfterMs: 120_000 }],
    [
      '503 with a Retry-After date',
      answer(503, '', { 'retry-after': new Date(now + 30_000).toUTCString() }),
      { kind: 'rate_limited', retryAfterMs: 30_000 },
    ],
    ['503 asking for a day', answer(503, '', { 'retry-after': '86400' }), { kind: 'rate_limited', retryAfterMs: MAX_RETRY_AFTER_MS }],
    ['503 alone', answer(503), { kind: 'transient' }],
    ['500', answer(500), { kind: 'transient' }],
    ['403', answer(403), { kind: 'forbidden' }],
    ['404', answer(404), { kind: 'not_found' }],
    ['412', answer(412), { kind: 'precondition_failed' }],
    ['415', answer(415), { kind: 'invalid' }],
    [
      '409 no-uid-conflict naming the holder (RFC 4791)',
      answer(
        409,
        '<D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:no-uid-conflict><D:href>/cal/other.ics</D:href></C:no-uid-conflict></D:error>',
      ),
      { kind: 'uid_conflict', href: '/cal/other.ics' },
    ],
    [
      "400 from Nextcloud's trash bin",
      answer(
        400,
        '<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>Sabre\\DAV\\Exception\\BadRequest</s:exception><s:message>Deleted calendar object with uid already exists in this calendar collection.</s:message></d:error>',
      ),
      { kind: 'uid_conflict' },
    ],
  ];
  for (const [name, a, expected] of cases) {
    it(`reads ${name} as ${expected.kind}`, () => {
      expect(errorFromAnswer('PUT /cal/x.ics', a, now)).toMatchObject(expected);
    });
  }

  it("names the request and quotes the server's own message", () => {
    const body = '<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:message>Calendar is read-only</s:message></d:error>';
    expect(errorFromAnswer('PUT /cal/x.ics', answer(403, body), now).message).toBe(
      'PUT /cal/x.ics: the server answered 403 (Calendar is read-only)',
    );
  });
});

describe('names and specs', () => {
  it('turns keys into resource names and back', () => {
    const cal = 'https://dav.example.com/cal/clinic/';
    for (const key of ['733d9fee-c3ce-41f6-a941-122b7f72dc4c', 'a b', 'x@y', 'ção', 'a%2Fb', 'a+b']) {
      const url = resourceUrl(cal, key);
      expect(url.href.startsWith(cal)).toBe(true);
      expect(isMember(new URL(cal), url)).toBe(true);
      expect(keyOfHref(url.href)).toBe(key);
    }
  });

  it('reads no key from a name that is not {key}.ics, or that decodes to a path', () => {
    for (const href of [
      '/cal/clinic/event',
      '/cal/clinic/',
      '/cal/clinic/%E0%A4%A.ics',
      '/cal/clinic/a%2Fb.ics',
      '/cal/clinic/..%2F.ics',
    ]) {
      expect(keyOfHref(href), href).toBeNull();
    }
  });

  const found: CalendarCollection[] = [
    { url: 'https://caldav.fastmail.com/dav/calendars/user/ana@example.com/work/', displayName: 'Work', supportsSync: true },
    { url: 'https://caldav.fastmail.com/dav/calendars/user/ana@example.com/home/', displayName: 'home', supportsSync: true },
    { url: 'https://caldav.fastmail.com/dav/calendars/user/ana@example.com/home2/', displayName: 'Home', supportsSync: true },
  ];
  const base = new URL('https://caldav.fastmail.com/dav/');

  it('prefers an exact display name to one that differs in case', () => {
    expect(matchCalendar(found, parseSpec('Home', base))?.url).toMatch(/home2\/$/);
    expect(matchCalendar(found, parseSpec('work', base))?.url).toMatch(/work\/$/);
  });

  it('matches a collection URL however its @ is encoded', () => {
    expect(
      matchCalendar(found, parseSpec('https://caldav.fastmail.com/dav/calendars/user/ana%40example.com/work', base))?.displayName,
    ).toBe('Work');
    expect(matchCalendar(found, parseSpec('/dav/calendars/user/ana@example.com/work/', base))?.displayName).toBe('Work');
  });

  it('refuses a name that two calendars share, asking for the URL', () => {
    const twins = [found[0]!, { ...found[1]!, displayName: 'Work' }];
    expect(() => matchCalendar(twins, parseSpec('Work', base))).toThrow(/2 calendars are named "Work".*give the collection URL/);
  });
});
