// Discovery against a real Radicale: from the configured URL to the calendar a config entry names,
// and the errors a person setting it up meets, each saying what to fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { adapter, failure, PASSWORD, USER } from './setup.ts';

let server: Radicale;
let clinic: string;
let home: string;

beforeAll(async () => {
  server = await startRadicale();
  const app = new CalendarApp(server.url, USER, PASSWORD);
  clinic = await app.makeCalendar('/alice/clinic/', 'Clinic');
  home = await app.makeCalendar('/alice/home/', 'Home');
  await app.makeCalendar('/alice/tasks/', 'Clinic tasks', ['VTODO']);
});
afterAll(() => server?.stop());

describe('discovery', () => {
  it('finds the event calendars from the bare host through /.well-known/caldav, leaving out a task-only list', async () => {
    const found = await adapter(server.url).calendars();
    expect(found.map((c) => [c.displayName, c.url, c.supportsSync]).sort()).toEqual([
      ['Clinic', clinic, true],
      ['Home', home, true],
    ]);
  });

  it('finds a calendar by its display name, ignoring case and spaces when nothing matches exactly', async () => {
    expect((await adapter(server.url).findCalendar('Clinic')).url).toBe(clinic);
    expect((await adapter(server.url).findCalendar('  clinic ')).url).toBe(clinic);
  });

  it('finds a calendar by its collection URL, absolute or as a path, with or without the final slash', async () => {
    const dav = adapter(server.url);
    expect((await dav.findCalendar(home)).url).toBe(home);
    expect((await dav.findCalendar('/alice/home')).url).toBe(home);
  });

  it('starts from a principal or a calendar URL as well as from the root', async () => {
    expect((await adapter(new URL('/alice/', server.url).href).findCalendar('Home')).url).toBe(home);
    expect((await adapter(clinic).findCalendar('Home')).url).toBe(home);
  });

  it('says a missing calendar is missing and lists the calendars it found, with their URLs', async () => {
    const e = await failure(adapter(server.url).findCalendar('Surgery'));
    expect(e.kind).toBe('calendar_not_found');
    expect(e.message).toContain('no calendar named "Surgery"');
    expect(e.message).toContain(`"Clinic" (${clinic})`);
    expect(e.message).toContain(`"Home" (${home})`);
    expect(e.message).not.toContain('tasks');
  });

  it('answers a wrong password with an auth error that says to check the username and app password', async () => {
    const e = await failure(adapter(server.url, { password: 'wrong' }).calendars());
    expect(e.kind).toBe('auth');
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/check caldav\.username and the password/);
    expect(e.message).toMatch(/app-specific password/);
    expect(e.message).not.toContain('wrong');
  });
});

describe('a calendar home on another host', () => {
  let front: Server;
  let frontUrl: string;
  beforeAll(async () => {
    // Like caldav.icloud.com: the principal answers on the entry host, the home lives on a partition host
    // (pNN-caldav.icloud.com), which is another origin.
    const multistatus = (href: string, prop: string) =>
      `<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>${href}</href><propstat><prop>${prop}</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>`;
    front = createServer((req, res) => {
      const reply = (body: string) => res.writeHead(207, { 'content-type': 'application/xml' }).end(body);
      if (req.method !== 'PROPFIND') return res.writeHead(405).end();
      if (req.url === '/') return reply(multistatus('/', '<current-user-principal><href>/1234/principal/</href></current-user-principal>'));
      if (req.url === '/1234/principal/') {
        return reply(
          multistatus(
            req.url,
            `<calendar-home-set xmlns="urn:ietf:params:xml:ns:caldav"><href xmlns="DAV:">${server.url}alice/</href></calendar-home-set>`,
          ),
        );
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => front.close(() => r())));

  it('sends the password only to caldav.url: the home on the other host is an error naming it, and configured, it is used', async () => {
    const e = await failure(adapter(frontUrl).findCalendar('Clinic'));
    expect(e.message).toContain(new URL(server.url).origin);
    expect(e.message).toContain('caldav.url');
    expect(await adapter(server.url).findCalendar('Clinic')).toMatchObject({ url: clinic, displayName: 'Clinic' });
  });
});

describe('a URL that is not a CalDAV server', () => {
  let web: Server;
  let webUrl: string;
  beforeAll(async () => {
    // A web site: HTML for GET, 405 for WebDAV methods, as a plain web server answers.
    web = createServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>');
      else res.writeHead(405).end();
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => web.close(() => r())));

  it('is reported as not CalDAV, with the DAV roots of the common servers to compare with', async () => {
    const e = await failure(adapter(webUrl).calendars());
    expect(e.kind).toBe('not_caldav');
    expect(e.message).toContain(webUrl);
    expect(e.message).toContain('https://host/remote.php/dav/');
    expect(e.message).toContain('https://caldav.icloud.com/');
  });
});
