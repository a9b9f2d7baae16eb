// A CalDAV server (or whatever answers at caldav.url) that points calbridge elsewhere gets no password
// there: not through a DAV href in a PROPFIND answer, not through a redirect to another port of the
// same host. Each refusal names the address, to be put in caldav.url if it is the right one.
import { afterEach, describe, expect, it } from 'vitest';
import { adapter, failure } from './setup.ts';
import { startRedirector, startServer, type Misbehaving } from '../helpers/misbehaving.ts';

const servers: Misbehaving[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const multistatus = (href: string, prop: string) =>
  `<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>${href}</href><propstat><prop>${prop}</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>`;

/** The far end: anything it receives is a leak. */
async function elsewhere(): Promise<Misbehaving> {
  const s = await startServer((_req, res) => res.writeHead(207, { 'content-type': 'application/xml' }).end(multistatus('/', '')));
  servers.push(s);
  return s;
}

async function davRoot(answer: (path: string) => string | undefined): Promise<Misbehaving> {
  const s = await startServer((req, res) => {
    const body = req.method === 'PROPFIND' ? answer(req.url) : undefined;
    if (body) res.writeHead(207, { 'content-type': 'application/xml' }).end(body);
    else res.writeHead(404).end();
  });
  servers.push(s);
  return s;
}

describe('CalDAV discovery links and redirects to another origin', () => {
  it('a current-user-principal on another origin over http gets no Authorization, and the error names the address', async () => {
    const far = await elsewhere();
    const root = await davRoot((path) =>
      path === '/dav/'
        ? multistatus('/dav/', `<current-user-principal><href>${far.origin}/alice/</href></current-user-principal>`)
        : undefined,
    );
    const e = await failure(adapter(`${root.origin}/dav/`).calendars());
    expect(far.requests).toEqual([]);
    expect(e.message).toContain(far.origin);
    expect(e.message).toContain('caldav.url');
    expect(root.requests.every((r) => r.headers.authorization?.startsWith('Basic '))).toBe(true);
  });

  it('a calendar-home-set on another origin over http gets no Authorization, and the error names the address', async () => {
    const far = await elsewhere();
    const root = await davRoot((path) => {
      if (path === '/dav/') return multistatus('/dav/', '<current-user-principal><href>/dav/alice/</href></current-user-principal>');
      if (path === '/dav/alice/')
        return multistatus(
          '/dav/alice/',
          `<calendar-home-set xmlns="urn:ietf:params:xml:ns:caldav"><href xmlns="DAV:">${far.origin}/calendars/alice/</href></calendar-home-set>`,
        );
      return undefined;
    });
    const e = await failure(adapter(`${root.origin}/dav/`).calendars());
    expect(far.requests).toEqual([]);
    expect(e.message).toContain(far.origin);
    expect(e.message).toContain('caldav.url');
  });

  it('a redirect to another port of the same host gets no password, and the error names the address', async () => {
    const far = await elsewhere();
    // Same host name (127.0.0.1), another port: another origin.
    const root = await startRedirector(far.origin, 301);
    servers.push(root);
    const e = await failure(adapter(`${root.origin}/dav/`).calendars());
    expect(root.requests.length).toBeGreaterThan(0);
    expect(far.requests).toEqual([]);
    expect(e.message).toContain(far.origin);
    expect(e.message).toContain('caldav.url');
  });
});
