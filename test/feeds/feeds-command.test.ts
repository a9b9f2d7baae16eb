import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli.ts';
import { feedUrls } from '../../src/feeds/feed-urls.ts';
import { testConfig } from '../helpers/context.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function configFile(publicUrl: string, feeds: string): string {
  dir = mkdtempSync(join(tmpdir(), 'calbridge-feeds-cmd-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      'server:',
      `  public_url: ${publicUrl}`,
      'booking:',
      '  base_url: http://127.0.0.1:9',
      '  token: booking-token',
      'webhook:',
      '  secret: webhook-secret-0123456789',
      feeds,
    ].join('\n'),
  );
  return file;
}

describe('feeds command', () => {
  it("prints each feed's https:// and webcal:// URL", async () => {
    const file = configFile(
      'https://cal.example.com/base/',
      [
        'feeds:',
        '  - name: Clinic',
        '    token: clinic-token-0123456789',
        '  - name: Front desk',
        '    token: desk-token-0123456789+/',
      ].join('\n'),
    );
    const { code, out, err } = await cli('feeds', '--config', file);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toBe(
      [
        'Clinic',
        '  https://cal.example.com/base/feeds/clinic-token-0123456789.ics',
        '  webcal://cal.example.com/base/feeds/clinic-token-0123456789.ics',
        '',
        'Front desk',
        '  https://cal.example.com/base/feeds/desk-token-0123456789%2B%2F.ics',
        '  webcal://cal.example.com/base/feeds/desk-token-0123456789%2B%2F.ics',
      ].join('\n'),
    );
  });

  it('says so when there are no feeds, and warns about a public URL that is not https', async () => {
    const file = configFile('http://192.168.1.5:8080', '');
    const { code, out } = await cli('feeds', '--config', file);
    expect(code).toBe(0);
    expect(out).toMatch(/No feeds are configured/);

    const withFeed = configFile('http://192.168.1.5:8080', 'feeds:\n  - name: A\n    token: a-token-0123456789abc');
    const result = await cli('feeds', '--config', withFeed);
    expect(result.out).toContain('webcal://192.168.1.5:8080/feeds/a-token-0123456789abc.ics');
    expect(result.err).toMatch(/not https/);
  });
});

describe('feedUrls', () => {
  it('builds the URL a token with reserved characters can be served at', () => {
    const config = testConfig({ server: { public_url: 'https://x.example' }, feeds: [{ name: 'n', token: 'a b/c?d-0123456789' }] });
    expect(feedUrls(config)).toEqual([
      {
        name: 'n',
        https: 'https://x.example/feeds/a%20b%2Fc%3Fd-0123456789.ics',
        webcal: 'webcal://x.example/feeds/a%20b%2Fc%3Fd-0123456789.ics',
      },
    ]);
  });
});
