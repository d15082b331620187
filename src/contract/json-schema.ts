/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 takes it) of a contract shape, from its zod schema.
 * zod's own output, tidied the way the document has always spelled it: no `$schema`, no bounds of
 * ±2^53-1 on integers (zod adds them to every `z.int()`; every integer of the contract is safe),
 * and, with `nullAsType`, a nullable simple type as a type list (`{"type": ["array", "null"]}`)
 * rather than `anyOf` with `{"type": "null"}`, and keys in the document's order (type first, an
 * object's description next, anything else's last but before its `anyOf`). A schema with an `id` in its metadata is a
 * component of the document: met inside another, it becomes `$ref: #/components/schemas/<id>`;
 * an empty closed object is written `{"type": "object", "maxProperties": 0}`, and a record's
 * `propertyNames: {"type": "string"}` (every JSON key is one) is left out.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, options: { io?: 'input' | 'output'; nullAsType?: boolean } = {}): JsonSchema {
  const json = z.toJSONSchema(schema, { io: options.io ?? 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  // a component itself comes back as a reference to its own definition
  const self = typeof json.$ref === 'string' && Object.keys(json).length === 1 ? defs[json.$ref.slice('#/$defs/'.length)] : undefined;
  return tidy(self ?? json, options.nullAsType ?? false) as JsonSchema;
}

function tidy(node: unknown, nullAsType: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n, nullAsType));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = tidy(value, nullAsType);
  if (typeof out.$ref === 'string' && out.$ref.startsWith('#/$defs/')) out.$ref = `#/components/schemas/${out.$ref.slice('#/$defs/'.length)}`;
  if (out.type === 'object' && out.additionalProperties === false && isEmpty(out.properties) && out.required === undefined) {
    delete out.properties;
    delete out.additionalProperties;
    out.maxProperties = 0;
  }
  // every JSON key is a string: `propertyNames: {type: string}` (zod's record) says nothing
  const names = out.propertyNames as JsonSchema | undefined;
  if (names !== undefined && names.type === 'string' && Object.keys(names).length === 1) delete out.propertyNames;
  if (out.type === 'integer') {
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  }
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (nullAsType && anyOf?.length === 2 && isNull(anyOf[1]) && typeof anyOf[0]?.type === 'string') {
    const { anyOf: _, ...rest } = out;
    const { type, ...inner } = anyOf[0];
    // an enum lists every value the type list lets through, null included
    if (Array.isArray(inner.enum)) inner.enum = [...inner.enum, null];
    return ordered({ type: [type, 'null'], ...inner, ...rest });
  }
  return nullAsType ? ordered(out) : out;
}

const ORDER = ['type', 'format', 'pattern', 'enum', 'const', 'items', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'properties', 'required', 'additionalProperties'];

function ordered(node: JsonSchema): JsonSchema {
  const rank = (key: string) => {
    if (key === 'description') return node.type === 'object' ? 0.5 : ORDER.length + 1;
    if (key === 'anyOf' || key === 'oneOf') return ORDER.length + 2;
    const i = ORDER.indexOf(key);
    return i < 0 ? ORDER.length : i;
  };
  return Object.fromEntries(Object.entries(node).sort(([a], [b]) => rank(a) - rank(b)));
}

function isNull(s: JsonSchema | undefined): boolean {
  return s !== undefined && s.type === 'null' && Object.keys(s).length === 1;
}

function isEmpty(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}
