// Each alert channel against a real local counterpart: an HTTP receiver on 127.0.0.1 for ntfy and
// the webhook, an SMTP server (smtp-server) with a login for e-mail.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, expect, it } from 'vitest';
import { emailSender } from '../../src/alerts/email-sender.ts';
import { ntfySender, webhookSender } from '../../src/alerts/http-senders.ts';
import type { OutgoingAlert } from '../../src/alerts/sender.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const MESSAGE: OutgoingAlert = {
  event: 'problem',
  key: 'caldav.default.auth',
  sentence:
    'The CalDAV server refused the username and password: make a new app password for the account and put it in caldav.password. Status: https://sync.clinic.example/status',
  since: '2026-06-15T12:00:00.000Z',
  status_url: 'https://sync.clinic.example/status',
};
const FAST = { retry: { retries: 2, baseMs: 1, maxMs: 5 } };

let receiver: Receiver | undefined;
let smtp: SMTPServer | undefined;
afterEach(async () => {
  await receiver?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  receiver = smtp = undefined;
});

it('ntfy: the sentence as text, a title, a click to the status page', async () => {
  receiver = await startReceiver();
  await ntfySender(`${receiver.url}/clinic-calbridge-7f3a`, FAST).send(MESSAGE);
  expect(receiver.received).toHaveLength(1);
  const r = receiver.received[0]!;
  expect([r.method, r.path, r.body]).toEqual(['POST', '/clinic-calbridge-7f3a', MESSAGE.sentence]);
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(r.headers.title).toBe('calbridge: problem (caldav.default.auth)');
  expect(r.headers.click).toBe(MESSAGE.status_url);
});

it('webhook: JSON {event, key, sentence, since, status_url}; a 503 is retried', async () => {
  receiver = await startReceiver();
  receiver.answerNext({ status: 503 });
  await webhookSender(`${receiver.url}/hook`, FAST).send(MESSAGE);
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1]!.headers['content-type']).toBe('application/json');
  expect(JSON.parse(receiver.received[1]!.body)).toEqual({
    event: 'problem',
    key: MESSAGE.key,
    sentence: MESSAGE.sentence,
    since: MESSAGE.since,
    status_url: MESSAGE.status_url,
  });
});

it('a 4xx is final, and a redirect to another origin is not followed', async () => {
  receiver = await startReceiver();
  const other = await startReceiver();
  try {
    receiver.answerNext({ status: 404 });
    await expect(webhookSender(`${receiver.url}/hook`, FAST).send(MESSAGE)).rejects.toThrow('answered HTTP 404');
    expect(receiver.received).toHaveLength(1);
    receiver.answerNext({ status: 307, headers: { Location: `${other.url}/elsewhere` } });
    await expect(ntfySender(`${receiver.url}/topic`, FAST).send(MESSAGE)).rejects.toThrow(/alerts\.ntfy/);
    expect(other.received).toEqual([]);
  } finally {
    await other.close();
  }
});

it('an address that does not answer: its code, not the address (an ntfy topic is as good as a password)', async () => {
  receiver = await startReceiver();
  const dead = receiver.url;
  await receiver.close();
  receiver = undefined;
  const e = await ntfySender(`${dead}/secret-topic-0123456789`, FAST)
    .send(MESSAGE)
    .catch((x: unknown) => x);
  expect((e as Error).message).toBe('could not be reached (ECONNREFUSED)');
});

async function startSmtp(password: string) {
  const mails: { from: string; to: string[]; data: string; user: string }[] = [];
  smtp = new SMTPServer({
    secure: false,
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'alerts@clinic.example' && auth.password === password) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Quoted-printable soft line breaks joined: the text as a mail client shows it.
          data: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, ''),
          user: String(session.user),
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp!.listen(0, '127.0.0.1', () => r()));
  return { port: (smtp.server.address() as AddressInfo).port, mails };
}

it('e-mail over SMTP with a login: subject, sentence, status link; a refused login says so without the password', async () => {
  const password = 'smtp-pass-w0rd-!@';
  const { port, mails } = await startSmtp(password);
  const url = (pw: string) => `smtp://${encodeURIComponent('alerts@clinic.example')}:${encodeURIComponent(pw)}@127.0.0.1:${port}`;
  await emailSender({ smtp_url: url(password), from: 'calbridge@clinic.example', to: ['owner@clinic.example', 'ana@clinic.example'] }).send(
    MESSAGE,
  );
  expect(mails).toHaveLength(1);
  expect(mails[0]!.from).toBe('calbridge@clinic.example');
  expect(mails[0]!.to).toEqual(['owner@clinic.example', 'ana@clinic.example']);
  expect(mails[0]!.user).toBe('alerts@clinic.example');
  expect(mails[0]!.data).toContain('Subject: calbridge: problem (caldav.default.auth)');
  expect(mails[0]!.data).toContain('make a new app password');
  expect(mails[0]!.data).toContain('Status: https://sync.clinic.example/status');
  expect(mails[0]!.data).not.toContain(password);

  const e = await emailSender({ smtp_url: url('wrong-password-123'), from: 'calbridge@clinic.example', to: ['owner@clinic.example'] })
    .send(MESSAGE)
    .catch((x: unknown) => x);
  expect((e as Error).message).toBe('the SMTP server refused or could not be reached (EAUTH 535)');
  expect(mails).toHaveLength(1);
});
