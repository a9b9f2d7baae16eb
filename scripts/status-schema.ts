// The status document's schema (src/status/status-document.ts) as a JSON Schema, for people and
// tools outside TypeScript that read `status --json` or /api/status: docs/status.schema.json.
import { z } from 'zod';
import { statusDocument } from '../src/status/status-document.ts';

export function statusJsonSchemaText(): string {
  return `${JSON.stringify(z.toJSONSchema(statusDocument, { io: 'output', target: 'draft-2020-12' }), null, 2)}\n`;
}
