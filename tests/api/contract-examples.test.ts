// The server accepts every example of the published document (openapi.json): each /api/v1
// operation is sent as a customer with balance and stock, its path, required query and body
// filled from the document's examples, and an example id (which names no row) replaced by the
// id of a row this test made. No answer is a validation refusal (a 400 naming bad fields),
// every answer keeps to the document (the test client checks it), and each is a 2xx but for
// the two in NOT_HERE.
import { expect, it } from "vitest";
import { apiCallers } from "../support/api-keys.ts";
import { addStock, customer, purchase } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import openapi from "../../pocketbase/pb_hooks/lib/api/openapi.json" with { type: "json" };

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: { examples?: unknown[] } }[];
  requestBody?: { content: Record<string, { schema: Json }> };
}

const shop = useShop();
const { sessionOf } = apiCallers(shop);

/**
 * Operations whose example is accepted but whose 2xx needs what this shop has not: Stripe set
 * up (documented on the operation), a proxy whose exit the gateway found dead (the refund's
 * 2xx is in upstream-health.test.ts). Their answer is the route's own refusal, not the
 * document's.
 */
const NOT_HERE: Record<string, number> = { receiveStripeWebhook: 404, refundDownProxy: 409 };

const schemas = openapi.components.schemas as Record<string, Json>;
const firstExample = (schema: Json): unknown => {
  const ref = schema["$ref"];
  const resolved = typeof ref === "string" ? (schemas[ref.split("/").at(-1) ?? ""] ?? {}) : schema;
  return (resolved["examples"] as unknown[] | undefined)?.[0];
};

it("accepts every operation's examples", async () => {
  const user = await customer(shop, 100_000);
  const api = sessionOf(user);
  await addStock(shop, { type: "RESIDENTIAL", country: "US", count: 5 });
  // Rows the examples' ids stand for: a webhook (made before the purchase, so the purchase
  // makes it a delivery), a proxy, an API key.
  const webhook = await api<{ webhook: { id: string } }>("POST", "/api/v1/webhooks", {
    body: { url: "https://hooks.example.com/in", events: ["purchase.completed"] },
  });
  const bought = await purchase(user.pb, { type: "RESIDENTIAL", country: "US", quantity: 1 });
  const key = await api<{ api_key: { id: string } }>("POST", "/api/v1/api-keys", { body: { name: "To revoke", scopes: ["read"] } });
  const deliveries = await shop.su.collection("webhook_deliveries").getFullList({ filter: `endpoint = "${webhook.body.webhook.id}"` });
  const ids: Record<string, string> = {
    proxies: bought.proxies[0]!.id,
    webhooks: webhook.body.webhook.id,
    "api-keys": key.body.api_key.id,
    delivery: deliveries[0]?.id ?? "",
  };
  expect(Object.values(ids).every(Boolean), JSON.stringify(ids)).toBe(true);
  const exampleIds = new Set<unknown>();

  const operations = Object.entries(openapi.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
  // Removals last: the rows they remove stand in for the other operations' ids.
  operations.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
  const answers: string[] = [];
  for (const { method, path, op } of operations) {
    let target = path;
    const query: string[] = [];
    for (const p of op.parameters ?? []) {
      const example = p.schema.examples?.[0];
      if (p.in === "path") {
        exampleIds.add(example);
        const ownId = p.name === "delivery" ? ids["delivery"] : ids[path.split("/")[3] ?? ""];
        target = target.replace(`{${p.name}}`, ownId ?? String(example));
      } else if (p.in === "query" && p.required) query.push(`${p.name}=${encodeURIComponent(String(example))}`);
    }
    const schema = op.requestBody?.content["application/json"]?.schema;
    // An example id in a body (renew's proxy_ids) names the proxy bought above.
    const body =
      schema &&
      (JSON.parse(JSON.stringify(firstExample(schema)), (_k, value: unknown) =>
        exampleIds.has(value) || value === "a1b2c3d4e5f6g7h" ? ids["proxies"] : value,
      ) as unknown);
    const res = await api<{ errors?: Json }>(method, `${target}${query.length ? `?${query.join("&")}` : ""}`, {
      ...(body === undefined ? {} : { body }),
    });
    // A validation refusal (400) shows its fields.
    answers.push(`${op.operationId} ${res.status}${res.status === 400 && res.body.errors ? ` ${JSON.stringify(res.body.errors)}` : ""}`);
  }
  expect(answers).toHaveLength(Object.values(openapi.paths).flatMap((item) => Object.keys(item)).length);
  const expected = operations.map(({ op }) => `${op.operationId} ${NOT_HERE[op.operationId] ?? "2xx"}`);
  expect(answers.map((line) => line.replace(/ 2\d\d$/, " 2xx"))).toEqual(expected);
});
