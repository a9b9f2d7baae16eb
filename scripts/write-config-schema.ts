// `npm run schema`: writes config.schema.json from the zod schema (scripts/config-schema.ts).
// Run it after changing src/config/schema.ts or a comment in config.example.yaml; a test fails until then.
import { readFileSync, writeFileSync } from 'node:fs';
import { configJsonSchema } from './config-schema.ts';

const SCHEMA_FILE = 'config.schema.json';
const text = `${JSON.stringify(configJsonSchema(readFileSync('config.example.yaml', 'utf8')), null, 2)}\n`;
writeFileSync(SCHEMA_FILE, text);
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
