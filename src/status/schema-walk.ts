// Walking the status schema beside a value: which schema describes a field, and whether it is an
// instant. The status page renders any section generically and learns from here, not from a key's
// name or a string's look, that a value is a time.
import { z } from 'zod';

type Node = z.ZodType | undefined;

/** The schema of the value itself: optional and nullable unwrapped, the union's option the value fits. */
function settle(node: Node, value: unknown): Node {
  for (let i = 0; i < 8 && node; i++) {
    if (node instanceof z.ZodOptional || node instanceof z.ZodNullable) node = node.unwrap() as z.ZodType;
    else if (node instanceof z.ZodUnion) node = (node.options as z.ZodType[]).find((o) => o.safeParse(value).success) ?? undefined;
    else return node;
  }
  return node;
}

/** The schema of `value[key]` inside a value `node` describes (undefined when the schema does not say). */
export function fieldSchema(node: Node, value: unknown, key: string): Node {
  const here = settle(node, value);
  if (here instanceof z.ZodObject) return (here.shape as Record<string, z.ZodType>)[key];
  if (here instanceof z.ZodRecord) return here.valueType as z.ZodType;
  return undefined;
}

/** The schema of each element of an array `node` describes. */
export function elementSchema(node: Node, value: unknown): Node {
  const here = settle(node, value);
  return here instanceof z.ZodArray ? (here.element as z.ZodType) : undefined;
}

/** Whether the schema says this value is an instant (an ISO 8601 date-time). */
export function isInstant(node: Node, value: unknown): value is string {
  return typeof value === 'string' && settle(node, value) instanceof z.ZodISODateTime;
}
