// `alerts:` (docs/reference/configuration.md, "alerts"): defaults, errors that name the key, and the
// SMTP password masked wherever the config is printed.
import { expect, it } from 'vitest';
import { ConfigError, formatProblem, parseConfig } from '../../src/config/load.ts';
import { maskedConfig } from '../../src/config/mask.ts';

const env = {
  BOOKING_TOKEN: 'booking-token-0123456789abcdef',
  WEBHOOK_SECRET: 'webhook-secret-0123456789',
  SMTP_PASSWORD: 'smtp-s3cret-pass',
};
const base = `
server:
  public_url: https://cal.example.com
booking:
  base_url: https://booking.example.com
  token: \${BOOKING_TOKEN}
webhook:
  secret: \${WEBHOOK_SECRET}
`;

function problems(text: string): string[] {
  try {
    parseConfig(text, '/etc/calbridge/config.yaml', env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map(formatProblem);
    throw e;
  }
  throw new Error('expected the config to be rejected');
}

it('every key is optional; after_minutes is 15 by default; an empty URL is unset', () => {
  const c = parseConfig(`${base}alerts:\n  ntfy: ""\n`, '/c.yaml', env);
  expect(c.alerts).toEqual({ after_minutes: 15 });
  expect(parseConfig(base, '/c.yaml', env).alerts).toBeUndefined();
});

it('takes the contract example, and masks the SMTP password when printed', () => {
  const c = parseConfig(
    `${base}alerts:\n  after_minutes: 0\n  ntfy: https://ntfy.sh/clinic-calbridge-7f3a\n  webhook: https://hooks.example.com/calbridge\n  email:\n    smtp_url: smtps://alerts%40clinic.example:\${SMTP_PASSWORD}@smtp.example.com:465\n    from: calbridge@clinic.example\n    to: [owner@clinic.example]\n`,
    '/c.yaml',
    env,
  );
  expect(c.alerts?.after_minutes).toBe(0);
  expect(c.alerts?.email?.smtp_url).toContain(env.SMTP_PASSWORD);
  const printed = JSON.stringify(maskedConfig(c));
  expect(printed).not.toContain(env.SMTP_PASSWORD);
  expect(printed).toContain('smtps://****@smtp.example.com:465');
});

it.each([
  ['after_minutes: -1', 'alerts.after_minutes'],
  ['ntfy: ftp://ntfy.sh/x', 'alerts.ntfy'],
  ['webhook: not a url', 'alerts.webhook'],
  ['email:\n    smtp_url: https://smtp.example.com\n    from: a@b.example\n    to: [c@d.example]', 'alerts.email.smtp_url'],
  ['email:\n    smtp_url: smtp://smtp.example.com\n    from: nobody\n    to: [c@d.example]', 'alerts.email.from'],
  ['email:\n    smtp_url: smtp://smtp.example.com\n    from: a@b.example\n    to: []', 'alerts.email.to'],
  ['slack: https://hooks.slack.com/x', 'alerts'],
])('%s is an error naming %s', (line, key) => {
  const found = problems(`${base}alerts:\n  ${line}\n`);
  expect(found.join('\n')).toContain(key);
});
