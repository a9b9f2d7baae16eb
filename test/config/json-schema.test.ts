// config.schema.json: current with the zod schema, named by the example's modeline, and a real check
// of the example's shape (what an editor with yaml-language-server shows while one types).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import { configJsonSchema } from '../../scripts/config-schema.ts';

const example = readFileSync('config.example.yaml', 'utf8');
const committed = readFileSync('config.schema.json', 'utf8');
const editorCheck = z.fromJSONSchema(JSON.parse(committed) as Parameters<typeof z.fromJSONSchema>[0]);

/** The example as an editor sees it: `${...}` references not yet replaced. */
const exampleAsTyped = () => parse(example) as Record<string, Record<string, unknown>>;

describe('config.schema.json', () => {
  it('is what the zod schema and the example generate now', () => {
    const fresh = `${JSON.stringify(configJsonSchema(example), null, 2)}\n`;
    expect(fresh === committed, 'config.schema.json is stale: run npm run schema and commit the result').toBe(true);
  });

  it('is named by the modeline on the first line of config.example.yaml', () => {
    expect(example.split('\n')[0]).toBe('# yaml-language-server: $schema=./config.schema.json');
  });

  it('accepts the example as written, ${...} references included', () => {
    const result = editorCheck.safeParse(exampleAsTyped());
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('shows a misspelt key, a value outside a choice and a number that is not one, as check-config would', () => {
    const typo = exampleAsTyped();
    typo.server!.prot = 8080;
    expect(editorCheck.safeParse(typo).error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['prot'], path: ['server'] });

    const choice = exampleAsTyped();
    choice.database!.synchronous = 'fast';
    expect(editorCheck.safeParse(choice).error?.issues[0]?.path).toEqual(['database', 'synchronous']);

    const port = exampleAsTyped();
    port.server!.port = '80x';
    expect(editorCheck.safeParse(port).success).toBe(false);
    port.server!.port = '${PORT:-8080}';
    expect(editorCheck.safeParse(port).success).toBe(true);
  });

  it('explains keys with the comments of the example', () => {
    const schema = JSON.parse(committed) as {
      properties: Record<string, { properties: Record<string, { description?: string; default?: unknown }> }>;
    };
    expect(schema.properties.database!.properties.synchronous!.description).toMatch(
      /^normal: an acknowledged write survives a process kill/,
    );
    expect(schema.properties.server!.properties.port!.default).toBe(8080);
  });
});
