// A JSON schema of the document as the reference shows it: its type in words, its
// description, and every field of an object flattened with dots.
import type { JsonSchema, OpenApiDocument } from "@/features/api-reference/openapi-types";
import type { FieldView } from "@/features/api-reference/reference";

export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function resolve(doc: OpenApiDocument, schema: JsonSchema | undefined, seen: ReadonlySet<string> = new Set()): JsonSchema {
  if (!schema) return {};
  const ref = schema.$ref;
  if (!ref?.startsWith("#/components/schemas/")) return schema;
  const name = ref.slice("#/components/schemas/".length);
  if (seen.has(name)) return {};
  const target = doc.components?.schemas?.[name] ?? {};
  return { ...target, ...(schema.description ? { description: schema.description } : {}) };
}

export const refName = (schema: JsonSchema): string | null => schema.$ref?.slice(schema.$ref.lastIndexOf("/") + 1) ?? null;

/** The type in words: "string", "integer | null", "string[]", one of an enum's values. */
export function typeOf(doc: OpenApiDocument, raw: JsonSchema | undefined): string {
  const schema = resolve(doc, raw);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((s) => typeOf(doc, s)))].join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") {
    const item = typeOf(doc, schema.items);
    return item.includes(" ") ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === "object" || schema.properties) return refName(raw ?? {}) ?? "object";
  if (schema.type === "string" && schema.format) return `string (${schema.format})`;
  return schema.type ?? "any";
}

export function descriptionOf(doc: OpenApiDocument, raw: JsonSchema | undefined): string {
  const schema = resolve(doc, raw);
  if (schema.description) return schema.description;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const text = descriptionOf(doc, variant);
    if (text) return text;
  }
  return "";
}

/** The object a schema describes (through refs and `X | null`), or null. */
function objectOf(doc: OpenApiDocument, raw: JsonSchema | undefined, seen: ReadonlySet<string>): JsonSchema | null {
  const schema = resolve(doc, raw, seen);
  if (schema.properties) return schema;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectOf(doc, variant, seen);
    if (found) return found;
  }
  return null;
}

function arrayItemsOf(doc: OpenApiDocument, raw: JsonSchema | undefined, seen: ReadonlySet<string>): JsonSchema | null {
  const schema = resolve(doc, raw, seen);
  if (schema.type === "array" && schema.items) return schema.items;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = arrayItemsOf(doc, variant, seen);
    if (found) return found;
  }
  return null;
}

/** Every field of an object schema, nested objects flattened with dots, array items with "[]". */
export function fieldsOf(
  doc: OpenApiDocument,
  raw: JsonSchema | undefined,
  prefix = "",
  seen: ReadonlySet<string> = new Set(),
): FieldView[] {
  const name = refName(raw ?? {});
  const inner = name ? new Set([...seen, name]) : seen;
  const object = objectOf(doc, raw, seen);
  if (!object) {
    const items = arrayItemsOf(doc, raw, seen);
    return items && !prefix ? fieldsOf(doc, items, "[].", inner) : [];
  }
  const required = new Set(object.required ?? []);
  const out: FieldView[] = [];
  for (const [key, property] of Object.entries(object.properties ?? {})) {
    const path = `${prefix}${key}`;
    out.push({ name: path, type: typeOf(doc, property), required: required.has(key), description: descriptionOf(doc, property) });
    const propertyRef = refName(property);
    if (propertyRef && inner.has(propertyRef)) continue;
    if (objectOf(doc, property, inner)) out.push(...fieldsOf(doc, property, `${path}.`, inner));
    else {
      const items = arrayItemsOf(doc, property, inner);
      if (items && objectOf(doc, items, inner)) out.push(...fieldsOf(doc, items, `${path}[].`, inner));
    }
  }
  return out;
}
