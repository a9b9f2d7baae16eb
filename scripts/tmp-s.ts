import { z } from 'zod';
import { configSchema } from '../src/config/schema.ts';
const s = z.toJSONSchema(configSchema, { io: 'input' }) as any;
console.log(JSON.stringify(s.properties.google, null, 1).slice(0, 3000));
console.log(JSON.stringify(s.properties.feeds, null, 1).slice(0, 3000));
