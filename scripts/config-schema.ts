// The JSON Schema of the config file (config.schema.json), generated from the zod schema so the two
// cannot disagree. Editors (yaml-language-server) use it to complete and check config.yaml; the
// daemon never reads it. Deterministic: the same schema and example give the same bytes.
//
// What the file holds beyond z.toJSONSchema's output:
// - every scalar also accepts a `${...}` reference, which the loader replaces before it validates
//   (`port: ${PORT:-8080}`, `token: ${FEED_TOKEN}` shorter than the token's minimum length);
// - the defaults that zod cannot show through its text-to-number step, taken from a parsed config;
// - descriptions: the comment beside each key in config.example.yaml, the one place keys are explained.
import { z } from 'zod';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { configSchema } from '../src/config/schema.ts';

export type JsonSchema = { [key: string]: unknown };

const REFERENCE = '#/$defs/reference';

const REFERENCE_DEF: JsonSchema = {
  type: 'string',
  pattern: '\\$\\{[^}]+\\}',
  description: '${NAME}, ${NAME:-fallback} or ${file:PATH}: replaced when calbridge loads the config',
};

/** The smallest config whose parse fills every default, google and a feed included. */
const FILLER = {
  server: { public_url: 'https://calendar.example.com' },
  booking: { base_url: 'https://booking.example.com', token: 'x' },
  webhook: { secret: 'x'.repeat(16) },
  google: { credentials: { service_account_file: 'x' } },
  feeds: [{ name: 'x', token: 'x'.repeat(16) }],
};

export function configJsonSchema(exampleYaml: string): JsonSchema {
  // database.path's default follows $CALBRIDGE_DATABASE_PATH (the image sets it): not this machine's.
  const saved = process.env.CALBRIDGE_DATABASE_PATH;
  delete process.env.CALBRIDGE_DATABASE_PATH;
  let generated: JsonSchema;
  let defaults: unknown;
  try {
    generated = z.toJSONSchema(configSchema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema;
    defaults = configSchema.parse(FILLER);
  } finally {
    if (saved !== undefined) process.env.CALBRIDGE_DATABASE_PATH = saved;
  }
  fillDefaults(generated, defaults, FILLER);
  const described = describe(acceptReferences(generated), exampleComments(exampleYaml));
  const { $schema, ...rest } = described;
  return {
    $schema,
    title: 'calbridge configuration',
    description: 'config.yaml of calbridge; generated from its zod schema by `npm run schema`',
    ...rest,
    $defs: { reference: REFERENCE_DEF },
  };
}

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets `default` on optional scalar properties that have none, from the parsed filler config. */
function fillDefaults(schema: JsonSchema, parsed: unknown, given: unknown): void {
  const properties = schema.properties;
  if (isObject(properties) && isObject(parsed)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [key, sub] of Object.entries(properties)) {
      if (!isObject(sub)) continue;
      const value = parsed[key];
      const supplied = isObject(given) ? given[key] : undefined;
      if (isObject(value) || Array.isArray(value)) fillDefaults(sub, value, supplied);
      else if (value !== undefined && supplied === undefined && !required.has(key) && !('default' in sub)) sub.default = value;
    }
  }
  if (isObject(schema.items) && Array.isArray(parsed)) fillDefaults(schema.items, parsed[0], Array.isArray(given) ? given[0] : undefined);
}

const ANNOTATIONS = ['default', 'description', 'title', 'examples'];

/** A scalar with a type other than plain text, or constrained text: also a `${...}` reference. */
function acceptReferences(node: unknown): JsonSchema {
  if (!isObject(node)) return node as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, acceptReferences(v)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = isObject(value) ? acceptReferences(value) : value;
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') {
      out[key] = (value as unknown[]).map(acceptReferences);
    } else {
      out[key] = value;
    }
  }
  const scalar =
    out.type === 'integer' || out.type === 'number' || out.type === 'boolean' || (out.type === undefined && Array.isArray(out.enum));
  // A reference is at least `${X}`, four characters: a shorter minimum needs no alternative.
  const loose = (k: string) => k === 'type' || ANNOTATIONS.includes(k) || (k === 'minLength' && (out.minLength as number) <= 4);
  const constrainedText = out.type === 'string' && !Object.keys(out).every(loose);
  if (!scalar && !constrainedText) return out;
  const annotations = Object.fromEntries(Object.entries(out).filter(([k]) => ANNOTATIONS.includes(k)));
  const constraint = Object.fromEntries(Object.entries(out).filter(([k]) => !ANNOTATIONS.includes(k)));
  return { ...annotations, anyOf: [constraint, { $ref: REFERENCE }] };
}

/** The comment beside each key of the example, by path (`feeds[].token`). */
function exampleComments(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (node: unknown, path: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const at = path ? `${path}.${String(pair.key.value)}` : String(pair.key.value);
        const value = pair.value as Node | null;
        // A scalar or flow value carries the comment after it; a block section the one on its key's line.
        const flow = isScalar(value) || ((isMap(value) || isSeq(value)) && value.flow);
        const comment = flow ? value?.comment : (value as { commentBefore?: string | null } | null)?.commentBefore;
        const line = comment
          ?.split('\n')
          .map((l) => l.trim())
          .join(' ')
          .trim();
        if (line) found.set(at, line);
        walk(value, at);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, `${path}[]`);
    }
  };
  walk(parseDocument(text).contents, '');
  return found;
}

function describe(schema: JsonSchema, comments: Map<string, string>, path = ''): JsonSchema {
  const out: JsonSchema = { ...schema };
  const comment = comments.get(path);
  if (comment && out.description === undefined) out.description = comment;
  if (isObject(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, describe(v as JsonSchema, comments, path ? `${path}.${k}` : k)]),
    );
  }
  if (isObject(out.items)) out.items = describe(out.items, comments, `${path}[]`);
  return out;
}
