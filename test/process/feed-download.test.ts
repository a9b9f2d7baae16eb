// A large feed downloaded from a real `serve` over a socket: its body is written from the file beside
// the database straight into the response, plain and gzipped, whole and matching its ETag; a phone
// that drops the connection mid-download leaves no open file behind, and the next one gets it whole.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { checkFeed } from '../feeds/ics-assert.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { feedDaemonFolders } from '../helpers/feed-daemon-folder.ts';

const TOKEN = 'download-feed-token-0123456789';
const EVENTS = 2000; // about 0.9 MB: sent from its file, not from memory
const calbridge = calbridgeProcesses();
const folder = feedDaemonFolders('calbridge-feed-download-');
const setup = (): string => folder({ token: TOKEN, events: EVENTS });

interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function download(url: string, headers: Record<string, string> = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Reads the first chunk of the body, then drops the connection. */
function abandon(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => undefined).end();
    req.on('close', resolve);
    setTimeout(() => reject(new Error('no body arrived')), 20_000).unref();
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const openFiles = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe('a large feed over HTTP', () => {
  it('arrives whole, plain and gzipped, and a dropped download leaves no file open', async () => {
    const config = setup();
    const serve = calbridge.spawn(['serve', '--config', config]);
    const base = await serve.listening();
    const url = `${base}/feeds/${TOKEN}.ics`;

    const plain = await download(url);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(500_000);
    expect(plain.headers['content-length']).toBe(String(plain.body.length));
    expect(plain.headers.etag).toBe(`"${sha256(plain.body)}"`);
    expect(checkFeed(plain.body.toString('utf8'))).toHaveLength(EVENTS);

    const zipped = await download(url, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);

    const pid = serve.child.pid!;
    const before = openFiles(pid);
    for (let i = 0; i < 5; i++) await abandon(url);
    // The server notices each closed connection a moment later.
    for (let i = 0; i < 50 && openFiles(pid) > before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(openFiles(pid)).toBeLessThanOrEqual(before);
    const again = await download(url);
    expect(again.body.equals(plain.body)).toBe(true);
    expect(serve.hasExited()).toBe(false);
  });
});
