// The first message per field of a valibot schema, as a form shows them under each control:
// for schema unit tests.
import * as v from "valibot";

export function firstMessages(schema: v.GenericSchema, input: unknown): Record<string, string | undefined> {
  const result = v.safeParse(schema, input);
  if (result.success) return {};
  const nested = v.flatten(result.issues).nested ?? {};
  return Object.fromEntries(Object.entries(nested).map(([k, list]) => [k, list?.[0]]));
}
