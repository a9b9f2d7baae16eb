// `npm run status-schema`: writes docs/status.schema.json from the status document's zod schema.
// Run it after changing src/status/status-document.ts; a test fails until then.
import { writeFileSync } from 'node:fs';
import { statusJsonSchemaText } from './status-schema.ts';

const SCHEMA_FILE = 'docs/status.schema.json';
writeFileSync(SCHEMA_FILE, statusJsonSchemaText());
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
