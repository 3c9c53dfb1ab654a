// A valibot schema of the contract as the JSON Schema of the OpenAPI documents, with the
// messages a client reads: each action's or schema's own message (v.maxLength(200, "The
// description must be at most 200 characters"), v.string("Name is required")) rides on its
// schema as "x-error-messages" keyed by the JSON Schema keyword it became, and
// v.metadata({ errorCode }) as "x-error-code". The server's request validation
// (pocketbase/devapi) answers a field that breaks a keyword with that message and code.
import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

type Json = Record<string, unknown>;

/** What a field's error says beyond its message: its code (the hooks' codes). */
export interface ErrorMetadata {
  errorCode?: string;
  /** The field's message for whatever it breaks, where no action or schema has its own. */
  errorMessage?: string;
}

/** The JSON Schema keyword a valibot action becomes, for a schema of `type`. */
function keywordOf(action: string, type: unknown): string | undefined {
  const list = type === "array";
  switch (action) {
    case "min_length":
    case "non_empty":
      return list ? "minItems" : "minLength";
    case "max_length":
      return list ? "maxItems" : "maxLength";
    case "regex":
      return "pattern";
    case "min_value":
      return "minimum";
    case "max_value":
      return "maximum";
    case "integer":
    case "string":
    case "number":
    case "boolean":
    case "array":
    case "object":
      return "type";
    case "picklist":
    case "enum":
      return "enum";
  }
  return undefined;
}

function withMessage(json: Json, keyword: string | undefined, message: unknown): Json | undefined {
  if (!keyword || typeof message !== "string") return undefined;
  const messages = { ...((json["x-error-messages"] as Json | undefined) ?? {}), [keyword]: message };
  return { ...json, "x-error-messages": messages };
}

function convert(schema: v.GenericSchema, definitions: Record<string, v.GenericSchema>): Json {
  return toJsonSchema(schema, {
    target: "draft-2020-12",
    definitions,
    errorMode: "ignore",
    overrideSchema: ({ valibotSchema, jsonSchema }) =>
      withMessage(
        jsonSchema as Json,
        keywordOf(valibotSchema.type, (jsonSchema as Json)["type"]),
        (valibotSchema as { message?: unknown }).message,
      ),
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const json = jsonSchema as Json;
      if (valibotAction.type === "metadata") {
        const { errorCode, errorMessage } = (valibotAction as unknown as { metadata: ErrorMetadata }).metadata;
        if (!errorCode && !errorMessage) return undefined;
        return {
          ...json,
          ...(errorCode ? { "x-error-code": errorCode } : {}),
          ...(errorMessage ? { "x-error-message": errorMessage } : {}),
        };
      }
      return withMessage(json, keywordOf(valibotAction.type, json["type"]), (valibotAction as { message?: unknown }).message);
    },
  }) as Json;
}

/** `schema` as the documents write it, named schemas referred to under components.schemas. */
export function schemaOf(schema: v.GenericSchema, definitions: Record<string, v.GenericSchema>): Json {
  const json = convert(schema, definitions);
  delete json["$schema"];
  delete json["$defs"];
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** The named schemas, as components.schemas holds them. */
export function namedSchemas(definitions: Record<string, v.GenericSchema>): Json {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(definitions)) {
    const defs = convert(schema, definitions)["$defs"] as Record<string, Json>;
    schemas[name] = JSON.parse(JSON.stringify(defs[name]).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  }
  return schemas;
}
