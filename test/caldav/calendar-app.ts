// A second client on the same account, doing with plain requests what a phone's calendar app does:
// make a calendar, save an event it edited (a PUT with the ETag it last saw), delete one.
export class CalendarApp {
  private readonly auth: string;

  constructor(
    private readonly origin: string,
    user: string,
    password: string,
  ) {
    this.auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  /** MKCALENDAR (RFC 4791 §5.3.1) at `path`; returns the collection URL. */
  async makeCalendar(path: string, displayName: string, components: string[] = ['VEVENT']): Promise<string> {
    const url = new URL(path, this.origin).href;
    const comps = components.map((c) => `<C:comp name="${c}"/>`).join('');
    const body =
      '<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>' +
      `<D:displayname>${displayName}</D:displayname><C:supported-calendar-component-set>${comps}</C:supported-calendar-component-set>` +
      '</D:prop></D:set></C:mkcalendar>';
    const res = await this.request('MKCALENDAR', url, body, { 'content-type': 'application/xml' });
    if (res.status !== 201) throw new Error(`MKCALENDAR ${path}: ${res.status} ${res.body}`);
    return url;
  }

  /** Saves an object the way an app does after an edit: If-Match on the ETag it had. */
  async save(url: string, ics: string, etag?: string): Promise<{ status: number; etag: string | null }> {
    const res = await this.request('PUT', url, ics, {
      'content-type': 'text/calendar; charset=utf-8',
      ...(etag ? { 'if-match': etag } : {}),
    });
    return { status: res.status, etag: res.headers.get('etag') };
  }

  async delete(url: string, etag?: string): Promise<number> {
    return (await this.request('DELETE', url, undefined, etag ? { 'if-match': etag } : {})).status;
  }

  async get(url: string): Promise<{ status: number; body: string; etag: string | null }> {
    const res = await this.request('GET', url);
    return { status: res.status, body: res.body, etag: res.headers.get('etag') };
  }

  private async request(method: string, url: string, body?: string, headers: Record<string, string> = {}) {
    const res = await fetch(url, { method, body, headers: { ...headers, authorization: this.auth } });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }
}
