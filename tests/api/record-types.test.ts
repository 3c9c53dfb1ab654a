// The record types are generated from the collections the migrations make, and the
// collections' select values are the catalog's: one list of proxy and transaction types.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import catalog from "../../pocketbase/pb_hooks/lib/catalog.json" with { type: "json" };
import { PROXY_TYPES, TRANSACTION_TYPES } from "@/lib/catalog";
import { formatted, RECORD_TYPES_FILE, recordTypeName, recordTypesSource } from "../../scripts/generate-record-types.ts";
import { readPocketBaseSchema } from "../../scripts/pocketbase-schema.ts";

const { collections } = readPocketBaseSchema();

function selectValues(collection: string, field: string): string[] {
  const found = collections.find((c) => c.name === collection)?.fields.find((f) => f.name === field);
  if (found?.type !== "select") throw new Error(`${collection}.${field} is not a select field`);
  return found.values ?? [];
}

/** The members of an exported string-literal union in the generated file. */
function generatedUnion(name: string): string[] {
  const match = new RegExp(`export type ${name} = ([^;]+);`).exec(readFileSync(RECORD_TYPES_FILE, "utf8"));
  return JSON.parse(`[${(match?.[1] ?? "").split("|").join(",")}]`) as string[];
}

describe("collections and the catalog", () => {
  const proxyTypes = catalog.proxy_types.map((t) => t.value);
  const transactionTypes = catalog.transaction_types.map((t) => t.value);

  it.each([
    ["proxies", "type"],
    ["pricing_plans", "type"],
    ["proxy_orders", "proxy_type"],
  ])("%s.%s allows exactly the catalog's proxy types", (collection, field) => {
    expect(selectValues(collection, field)).toEqual(proxyTypes);
  });

  it("transactions.type allows exactly the catalog's transaction types", () => {
    expect(selectValues("transactions", "type")).toEqual(transactionTypes);
  });

  it("the generated unions and the catalog's typed lists say the same", () => {
    expect(generatedUnion("ProxyType")).toEqual(proxyTypes);
    expect([...PROXY_TYPES]).toEqual(proxyTypes);
    expect(generatedUnion("TransactionType")).toEqual(transactionTypes);
    expect([...TRANSACTION_TYPES]).toEqual(transactionTypes);
  });
});

describe("src/lib/pocketbase-types.ts", () => {
  it("is what the generator writes for today's collections (npm run types)", async () => {
    expect(readFileSync(RECORD_TYPES_FILE, "utf8")).toBe(await formatted(recordTypesSource(collections)));
  });

  it("has one interface per collection, without its hidden fields", () => {
    const source = readFileSync(RECORD_TYPES_FILE, "utf8");
    for (const collection of collections) {
      const body =
        new RegExp(`interface ${recordTypeName(collection.name)} extends RecordModel \\{\\n(.*?)\\n\\}`, "s").exec(source)?.[1] ?? "";
      const declared = [...body.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
      for (const field of collection.fields.filter((f) => f.name !== "id")) {
        expect(declared.includes(field.name), `${collection.name}.${field.name}`).toBe(!field.hidden);
      }
    }
  });
});
