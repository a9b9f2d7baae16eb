// POST /webhooks/{secret}/ (docs/reference/http.md, "Webhooks"). Checks in the documented order, then commits the raw body
// (deduplicated) before answering 200. Everything slow happens later, in the delivery worker.
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log.ts';
import type { NewDelivery } from '../store/delivery-store.ts';
import type { WriteOutcome } from '../store/delivery-writer.ts';
import { checkNotification } from '../sync/notification.ts';
import { secretMatcher, secretsMatcher } from '../core/secret-compare.ts';
import { ClientAbortedError } from './client-aborted.ts';

const MAX_BODY_BYTES = 1024 * 1024;
const RETRY_AFTER_SECONDS = '5';

export type RejectReason = 'wrong_secret' | 'unauthorized' | 'unsupported_media_type' | 'too_large' | 'not_json' | 'not_a_notification';

export interface RejectedRequest {
  reason: RejectReason;
  status: number;
  detail: string;
  contentType: string | null;
  /** The body as text when it was read (never for unauthenticated callers). */
  sample: string | null;
}

export interface WebhookDeps {
  secret: string;
  /** During a rotation the old secret still opens the door. */
  previousSecret?: string;
  authToken: string | undefined;
  write(delivery: NewDelivery): Promise<WriteOutcome>;
  clock: Clock;
  log: Logger;
  /** Counting and diagnosis of rejections (metrics, a capped sample). Must not throw. */
  onRejected(r: RejectedRequest): void;
  onAccepted(outcome: WriteOutcome | 'unavailable'): void;
  /** Told when a webhook request begins and ends being answered (background work waits meanwhile). */
  activity?: { begin(): void; end(): void };
}

/** "Authorization: Bearer <token>", or the bare token (webhook.auth_token, docs/reference/configuration.md). */
function presentedAuthToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1] : header.trim();
}

// application/json or any type/subtype+json, parameters ignored; a missing type is read as JSON.
function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** Reads the Node request directly (much cheaper than its web stream), stopping once over `limit`. */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (result: Buffer | 'too_large' | Error) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        incoming.pause(); // the rest is never read; the 413 closes the connection
        done('too_large');
      } else chunks.push(chunk);
    };
    const onEnd = () => done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    // A request stream fails only when its connection does: the client left, or the request timeout cut it off.
    const onError = (e: Error) => done(new ClientAbortedError(undefined, { cause: e }));
    const onClose = () => done(new ClientAbortedError());
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** Reads at most `limit` bytes, stopping as soon as the body is longer (never buffers it all). */
async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | 'too_large'> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return 'too_large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The same bytes are the same delivery: the first 16 bytes of the body's SHA-256 (128 bits: two
 * different bodies share a key once in 2^64 pairs), stored as a BLOB, a third of the hex text's size
 * in the index the receiver writes to (migration 015).
 */
export function dedupeKeyOf(raw: Buffer): Buffer {
  // One call, no Hash object per request (crypto.hash, Node 21.7 and later).
  return hash('sha256', raw, 'buffer').subarray(0, 16);
}

export function webhookRoutes(deps: WebhookDeps): Hono {
  const app = new Hono();
  const secretOf = secretsMatcher([deps.secret, deps.previousSecret].filter((s) => s !== undefined));
  const isSecret = (given: string) => secretOf(given) >= 0;
  const isAuthToken = deps.authToken === undefined ? undefined : secretMatcher(deps.authToken);
  const answer = async (c: Context) => {
    const contentType = c.req.header('content-type') ?? null;
    const reject = (reason: RejectReason, status: 400 | 401 | 404 | 413 | 415 | 422, detail: string, sample: string | null = null) => {
      deps.onRejected({ reason, status, detail, contentType, sample });
      if (status === 413) c.header('Connection', 'close'); // the rest of the body is never read
      return c.json({ error: status === 404 ? 'not found' : detail }, status);
    };

    if (!isSecret(c.req.param('secret') ?? '')) return reject('wrong_secret', 404, 'wrong secret');
    if (isAuthToken) {
      const given = presentedAuthToken(c.req.header('authorization'));
      if (given === undefined || !isAuthToken(given)) {
        return reject('unauthorized', 401, 'missing or wrong auth token (Authorization: Bearer <webhook.auth_token>)');
      }
    }
    const encoding = c.req.header('content-encoding');
    if (encoding !== undefined && encoding.trim() !== '')
      return reject('unsupported_media_type', 415, `Content-Encoding ${encoding} is not accepted`);
    if (!isJsonType(contentType ?? undefined)) return reject('unsupported_media_type', 415, `content type ${contentType} is not JSON`);
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > MAX_BODY_BYTES) return reject('too_large', 413, `the body is over ${MAX_BODY_BYTES} bytes`);

    // Served over node:http (src/net/hono-server.ts) the Node request is at hand; elsewhere (app.request) the web stream.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const raw =
      incoming && !incoming.readableDidRead
        ? await readIncoming(incoming, MAX_BODY_BYTES)
        : await readCapped(c.req.raw.body, MAX_BODY_BYTES);
    if (raw === 'too_large') return reject('too_large', 413, `the body is over ${MAX_BODY_BYTES} bytes`);
    let text: string;
    let parsed: unknown;
    try {
      text = decoder.decode(raw);
    } catch {
      return reject('not_json', 400, 'the body is not UTF-8 text', raw.subarray(0, 2048).toString('latin1'));
    }
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return reject('not_json', 400, `the body is not JSON: ${(e as Error).message}`, text);
    }
    const check = checkNotification(parsed);
    if (!check.ok) return reject('not_a_notification', 422, check.reason, text);

    const delivery: NewDelivery = {
      dedupeKey: dedupeKeyOf(raw),
      appointmentKey: check.appointmentKey,
      event: check.event,
      body: text,
      receivedAt: deps.clock.now(),
    };
    let outcome: WriteOutcome;
    try {
      outcome = await deps.write(delivery);
    } catch (e) {
      deps.onAccepted('unavailable');
      deps.log.error({ err: e }, 'webhook delivery could not be stored; answered 503 so the sender retries');
      c.header('Retry-After', RETRY_AFTER_SECONDS);
      return c.json({ error: 'storage unavailable, try again later' }, 503);
    }
    deps.onAccepted(outcome);
    return c.json({ status: outcome }, 200);
  };
  const handler = async (c: Context) => {
    deps.activity?.begin();
    try {
      return await answer(c);
    } finally {
      deps.activity?.end();
    }
  };
  app.post('/webhooks/:secret', handler);
  app.post('/webhooks/:secret/', handler);
  return app;
}
