// compose.yaml runs the image as the Dockerfile builds it (entry, healthcheck, volume, config path),
// so the two cannot drift apart; and the compose guide's config reads only secrets compose mounts.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readDockerfile } from './dockerfile.ts';
import { parseConfig } from '../../src/config/load.ts';

interface Service {
  image?: string;
  build?: unknown;
  entrypoint?: string[] | string;
  command?: string[] | string;
  restart?: string;
  ports?: string[];
  volumes?: string[];
  secrets?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; start_period?: string; retries?: number };
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  secrets?: Record<string, { file?: string }>;
}

const image = readDockerfile(readFileSync('Dockerfile', 'utf8'));
const compose = parse(readFileSync('compose.yaml', 'utf8')) as Compose;
const calbridge = compose.services.calbridge!;

/** `source:target[:mode]` of a short-syntax mount or port. */
const mount = (spec: string) => {
  const [source = '', target = '', mode] = spec.split(':');
  return { source, target, mode };
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('compose.yaml and the Dockerfile', () => {
  it('runs the image with its own entry, which is calbridge and not npm', () => {
    // npm would not pass SIGTERM on: the entry must be calbridge itself (or node running it).
    expect(image.entrypoint?.[0]).toMatch(/^(calbridge|node)$/);
    expect(calbridge.build).toBe('.');
    expect(calbridge.entrypoint === undefined || JSON.stringify(calbridge.entrypoint) === JSON.stringify(image.entrypoint)).toBe(true);
    expect(calbridge.command ?? image.cmd).toEqual(image.cmd);
  });

  it("checks health with the Dockerfile's own command and timings", () => {
    expect(image.healthcheck).toBeDefined();
    const hc = calbridge.healthcheck!;
    expect(hc.test).toEqual(['CMD', ...image.healthcheck!.test]);
    expect({ interval: hc.interval, timeout: hc.timeout, 'start-period': hc.start_period, retries: String(hc.retries) }).toEqual({
      interval: image.healthcheck!.options.interval,
      timeout: image.healthcheck!.options.timeout,
      'start-period': image.healthcheck!.options['start-period'],
      retries: image.healthcheck!.options.retries,
    });
  });

  it("keeps the database on a named volume at the image's volume path", () => {
    expect(image.volumes).toHaveLength(1);
    const [volume] = image.volumes;
    const database = image.env.CALBRIDGE_DATABASE_PATH!;
    expect(database.startsWith(`${volume}/`)).toBe(true);
    const data = calbridge.volumes!.map(mount).find((m) => m.target === volume);
    expect(data, `a mount at ${volume}`).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(data!.source);
    expect(calbridge.environment?.CALBRIDGE_DATABASE_PATH).toBeUndefined(); // the image's own default stands
  });

  it('keeps the database on the volume with config.example.yaml copied as it is, and beside it outside the image', () => {
    const example = readFileSync('config.example.yaml', 'utf8');
    // Every variable the example reads, set as a person following the guide would.
    const vars = Object.fromEntries(
      [...example.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::-[^}]*)?\}/g)].map((m) => [m[1]!, `${m[1]!.toLowerCase()}-0123456789abcdef`]),
    );
    delete vars.CALBRIDGE_DATABASE_PATH;
    const inImage = parseConfig(example, '/etc/calbridge/config.yaml', { ...vars, ...image.env });
    expect(inImage.database.path).toBe(image.env.CALBRIDGE_DATABASE_PATH);
    expect(inImage.database.path.startsWith(`${image.volumes[0]}/`)).toBe(true);
    const outside = parseConfig(example, join(tmpdir(), 'config.yaml'), vars);
    expect(outside.database.path).toBe(join(tmpdir(), 'data', 'calbridge.db'));
  });

  it('mounts the config read-only where the image looks for it', () => {
    const config = calbridge.volumes!.map(mount).find((m) => m.target === image.env.CALBRIDGE_CONFIG);
    expect(config, `a mount at ${image.env.CALBRIDGE_CONFIG}`).toMatchObject({ source: './config.yaml', mode: 'ro' });
  });

  it('publishes, on loopback only, the port the healthcheck asks', () => {
    const [port] = image.expose;
    expect(image.healthcheck!.test.join(' ')).toContain(`127.0.0.1:${port}/healthz`);
    expect(calbridge.ports).toEqual([`127.0.0.1:${port}:${port}`]);
  });

  it('restarts unless stopped, and mounts secrets as files that are declared', () => {
    expect(calbridge.restart).toBe('unless-stopped');
    expect(calbridge.secrets!.length).toBeGreaterThan(0);
    for (const name of calbridge.secrets!) expect(compose.secrets?.[name]?.file, name).toMatch(/^\.\/secrets\//);
  });

  it('puts Caddy in front with the documented Caddyfile, proxying to the port calbridge listens on', () => {
    const caddy = compose.services.caddy!;
    const caddyfile = caddy.volumes!.map(mount).find((m) => m.target === '/etc/caddy/Caddyfile')!;
    expect(existsSync(caddyfile.source)).toBe(true);
    const text = readFileSync(caddyfile.source, 'utf8');
    expect(text).toMatch(new RegExp(`^\\s*reverse_proxy calbridge:${image.expose[0]}$`, 'm'));
    expect(text).toContain('{$CALBRIDGE_DOMAIN} {');
    expect(Object.keys(caddy.environment ?? {})).toContain('CALBRIDGE_DOMAIN');
  });
});

describe('the compose guide', () => {
  const guide = readFileSync('docs/compose.md', 'utf8');
  const snippet = /<!-- config: compose -->\s*```yaml\n([\s\S]*?)```/.exec(guide)?.[1];

  it('gives config lines that read only secrets compose mounts, and that calbridge accepts', () => {
    expect(snippet, 'the guide marks its config block with <!-- config: compose -->').toBeDefined();
    const referenced = [...snippet!.matchAll(/\$\{file:\/run\/secrets\/([^}:]+)\}/g)].map((m) => m[1]!);
    expect(referenced.length).toBeGreaterThan(0);
    for (const name of referenced) expect(calbridge.secrets, `${name} is mounted`).toContain(name);

    // The same lines with the secrets where a test can put them: a valid config.
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-compose-'));
    dirs.push(dir);
    for (const name of referenced) writeFileSync(join(dir, name), `${name}-0123456789abcdef\n`);
    const config = parseConfig(snippet!.replaceAll('/run/secrets/', `${dir}/`), join(dir, 'config.yaml'), {});
    expect(config.server.admin_token).toBe('admin_token-0123456789abcdef');
    expect(config.webhook.secret).toBe('webhook_secret-0123456789abcdef');
  });
});
