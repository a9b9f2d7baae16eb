// docs/google-setup.md, followed to the letter against the fake Google: each way's config lines from
// the guide itself, then a write into the calendar they name; and each failure the guide describes,
// as the status document really shows it, with the words the guide quotes.
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGoogleSimulator, type GoogleSimulator, type GoogleSimulatorOptions } from '../../src/google/simulator/index.ts';
import { loadConfigFile } from '../../src/config/load.ts';
import { fileProblems, googleCalendarWarnings } from '../../src/config/files.ts';
import type { Config } from '../../src/config/schema.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { silentLogger } from '../../src/log.ts';
import { unreachableBooking } from '../helpers/context.ts';
import { runGoogleAuth } from '../helpers/google-auth.ts';
import { appointment } from './google-env.ts';

const guide = readFileSync('docs/google-setup.md', 'utf8');
/** The guide as one line of text, for phrases it quotes across its line breaks. */
const guideText = guide.replace(/\s+/g, ' ');
const SERVICE_ACCOUNT = 'calbridge@clinic-calendar.iam.gserviceaccount.com';

let fake: GoogleSimulator | undefined;
let runtime: Runtime | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await runtime?.close();
  await fake?.close();
  runtime = fake = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function guideBlock(name: string): string {
  const block = new RegExp(`<!-- config: ${name} -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\``).exec(guide)?.[1];
  if (!block) throw new Error(`docs/google-setup.md has no block marked <!-- config: ${name} -->`);
  return block;
}

/**
 * A config file of the guide's google lines, as written, beside the sections every config has; the
 * secrets the guide reads from /run/secrets/ sit in a folder of the test's, and the endpoints are
 * the fake's.
 */
async function followGuide(way: 'service-account' | 'oauth', fakeOptions: GoogleSimulatorOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-guide-'));
  dirs.push(dir);
  fake = await startGoogleSimulator(fakeOptions);
  const google = guideBlock(way)
    .replaceAll('/run/secrets/', `${dir}/`)
    .replace(/^google:\n/m, `google:\n  api_root: ${fake.rootUrl}\n  token_url: ${fake.tokenUrl}\n  requests_per_minute: 10000\n`);
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      'server: {public_url: "https://calendar.example.com"}',
      'database: {path: calbridge.db}',
      'booking: {base_url: "https://booking.example.com", token: booking-token-0123456789}',
      'webhook: {secret: webhook-secret-0123456789, register: false}',
      google,
    ].join('\n'),
  );
  return { dir, file };
}

function writeServiceAccountKey(dir: string): void {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account',
    project_id: 'clinic-calendar',
    private_key_id: '0123456789abcdef',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: SERVICE_ACCOUNT,
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  writeFileSync(join(dir, 'google_service_account'), JSON.stringify(key), { mode: 0o600 });
}

/** One appointment through the real Google writer; the status document as /api/status gives it. */
async function writeOne(config: Config) {
  runtime = await buildRuntime(config, { log: silentLogger(), processMetrics: false, booking: unreachableBooking });
  runtime.services.appointments.upsert(appointment(1));
  await runtime.scheduler.runNow('google-writer');
  const google = runtime.status().targets['google.default']!;
  const readiness = runtime.parts.find((p) => p.name === 'google.default')!.readiness!();
  return { google, readiness: [...readiness.reasons, ...readiness.warnings.map((w) => w.text)].join('\n') };
}

const calendarOf = (config: Config) => config.google!.calendars[0]!.calendar_id;

describe('docs/google-setup.md, way 1: a service account', () => {
  async function serviceAccount(access: GoogleSimulatorOptions['calendars'] | 'guide' = 'guide', fakeOptions: GoogleSimulatorOptions = {}) {
    const guideCalendar = /calendar_id: (\S+)/.exec(guideBlock('service-account'))![1]!;
    const { dir, file } = await followGuide('service-account', {
      calendars: access === 'guide' ? { [guideCalendar]: 'writer' } : access,
      ...fakeOptions,
    });
    writeServiceAccountKey(dir);
    const { config } = loadConfigFile(file, {});
    return { config, calendar: calendarOf(config) };
  }

  it('writes into the shared calendar the guide names, and check-config has nothing to say', async () => {
    const { config, calendar } = await serviceAccount();
    expect(calendar).toMatch(/@group\.calendar\.google\.com$/);
    expect([...fileProblems(config), ...googleCalendarWarnings(config)]).toEqual([]);
    const { google } = await writeOne(config);
    expect(google.auth).toEqual({ mode: 'service_account', ok: true, error: null });
    expect(google.failures).toEqual([]);
    expect(fake!.events(calendar).map((e) => e.summary)).toEqual(['Person 1 · SC1']);
  });

  it('shows a wrong calendar ID, or one not shared, as the guide says, naming the account to share with', async () => {
    const { config, calendar } = await serviceAccount({ 'someone-else@group.calendar.google.com': 'owner' });
    const { google } = await writeOne(config);
    const expected = `calendar "${calendar}" was not found (Google answered 404 notFound): its ID is wrong, or it is not shared with the service account ${SERVICE_ACCOUNT}.`;
    expect(google.failures[0]?.last_error).toContain(expected);
    expect(google.last_error).toContain('"Make changes to events"');
    expect(guideText).toContain(
      'was not found (Google answered 404 notFound): its ID is wrong, or it is not shared with the service account',
    );
  });

  it('shows a calendar shared only to see as the guide says', async () => {
    const guideCalendar = /calendar_id: (\S+)/.exec(guideBlock('service-account'))![1]!;
    const { config, calendar } = await serviceAccount({ [guideCalendar]: 'reader' });
    const { google } = await writeOne(config);
    expect(google.failures[0]?.last_error).toBe(
      `calendar "${calendar}" is shared with the service account ${SERVICE_ACCOUNT} without write access (Google answered 403 requiredAccessLevel): ` +
        `share the calendar with the service account ${SERVICE_ACCOUNT} with "Make changes to events" (docs/google-setup.md)`,
    );
    expect(guideText).toContain('without write access (Google answered 403 requiredAccessLevel): share the calendar with');
    expect(fake!.events(calendar)).toEqual([]);
  });

  it('shows a refused key as the guide says, with what to do', async () => {
    const { config } = await serviceAccount();
    fake!.revoke();
    const { google } = await writeOne(config);
    expect(google.auth.ok).toBe(false);
    expect(google.auth.error).toMatch(
      new RegExp(`^Google refused the key of the service account ${SERVICE_ACCOUNT}: invalid_grant .*deleted or disabled`),
    );
    expect(guideText).toContain('Google refused the key of the service account calbridge@...: invalid_grant (...)');
  });

  it("warns in check-config, with the guide's words, when a service account is pointed at primary", async () => {
    const { config } = await serviceAccount();
    const primary: Config = { ...config, google: { ...config.google!, calendars: [{ calendar_key: '*', calendar_id: 'primary' }] } };
    const [warning] = googleCalendarWarnings(primary);
    expect(`${warning?.path}: ${warning?.message}`).toMatch(
      /^google\.calendars\[0\]\.calendar_id: is "primary" with a service account: that is the service account's own calendar, which no person sees\./,
    );
    expect(guideText).toContain(
      'google.calendars[0].calendar_id: is "primary" with a service account: that is the service account\'s own calendar, which no person sees.',
    );
    const named: Config = { ...config, google: { ...config.google!, calendars: [{ calendar_key: '*', calendar_id: 'Clinic bookings' }] } };
    expect(googleCalendarWarnings(named)[0]?.message).toMatch(/^"Clinic bookings" does not look like a Google calendar ID/);
  });
});

describe('docs/google-setup.md, way 2: an OAuth client', () => {
  async function consented() {
    const clientId = /client_id: (\S+)/.exec(guideBlock('oauth'))![1]!;
    const { dir, file } = await followGuide('oauth', { clientId, clientSecret: 'GOCSPX-guide-secret', calendars: { primary: 'owner' } });
    writeFileSync(join(dir, 'google_client_secret'), 'GOCSPX-guide-secret\n');
    const { config } = loadConfigFile(file, {});
    expect(googleCalendarWarnings(config)).toEqual([]);

    // `calbridge google auth` as on a server: the address the browser ends on is pasted back.
    const auth = runGoogleAuth(config);
    const url = await auth.consentUrl;
    expect(new URL(url).searchParams.get('scope')).toBe('https://www.googleapis.com/auth/calendar.events');
    auth.type(fake!.authorize(url));
    expect(await auth.exit).toBe(0);
    expect(auth.printed.join('\n')).not.toContain(fake!.tokens.refreshTokens[0]);
    return config;
  }

  it("consents once with google auth, then writes into the person's own calendar", async () => {
    const config = await consented();
    const { google } = await writeOne(config);
    expect(google.auth).toEqual({ mode: 'oauth', ok: true, error: null });
    expect(fake!.events('primary')).toHaveLength(1);
  });

  it('shows invalid_grant as the guide says, and readiness says to run google auth again', async () => {
    const config = await consented();
    fake!.revoke();
    const { google, readiness } = await writeOne(config);
    expect(google.auth).toEqual({ mode: 'oauth', ok: false, error: 'invalid_grant: Token has been expired or revoked.' });
    expect(guideText).toContain('`invalid_grant: Token has been expired or revoked.`');
    expect(readiness).toContain('calbridge google auth');
    expect(readiness).toContain('"In production"');
  });
});
