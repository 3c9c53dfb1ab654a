// Every /api/v1 request is checked against the OpenAPI document before its hook runs
// (pocketbase/devapi, issue #27): a body, a query or a path parameter that breaks the
// document is a 400 problem naming each bad field under `errors`, with the message the
// contract carries, and the hook never sees it: nothing is written (no endpoint, key or
// activity row), and where the hook would have answered first with something else (a 404
// for another customer's endpoint) the answer is the document's 400.
import { describe, expect, it } from "vitest";
import { apiCallers, type Problem } from "../support/api-keys.ts";
import { customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop();
const { sessionOf } = apiCallers(shop);

const rowsOf = (collection: string, user: string) => shop.su.collection(collection).getFullList({ filter: `user = "${user}"` });

describe("requests checked against the OpenAPI document", () => {
  it("refuse a bad body with every field under its name, before the hook writes anything", async () => {
    const user = await customer(shop);
    const api = sessionOf(user);
    const activity = (await rowsOf("account_activity", user.id)).length; // the sign-in
    const webhook = await api<Problem>("POST", "/api/v1/webhooks", {
      body: { url: "nope", events: [], description: "x".repeat(201), balance_low_cents: 0 },
      invalid: true,
    });
    expect(webhook.status).toBe(400);
    expect(webhook.headers.get("content-type")).toContain("application/problem+json");
    expect(webhook.body.errors).toEqual({
      url: { code: "validation_invalid_value", message: "Enter a valid URL, e.g. https://example.com/webhooks." },
      events: { code: "validation_required", message: "Choose at least one event." },
      description: { code: "validation_max_length", message: "The description must be at most 200 characters." },
      balance_low_cents: {
        code: "validation_invalid_number",
        message: "The low-balance threshold must be a whole number of cents from 1 to 100,000,000 (or none).",
      },
    });
    const key = await api<Problem>("POST", "/api/v1/api-keys", {
      body: { name: " ", scopes: ["root"], spend_cap_cents: 1.5 },
      invalid: true,
    });
    expect(key.status).toBe(400);
    expect(key.body.errors).toEqual({
      name: { code: "validation_invalid_value", message: "Name is required." },
      scopes: { code: "validation_invalid_value", message: "Scopes are read, purchase, rotate, webhooks." },
      spend_cap_cents: {
        code: "validation_invalid_number",
        message: "The spend cap must be a whole number of cents from 1 to 100,000,000 (or none).",
      },
    });
    const empty = await api<Problem>("POST", "/api/v1/webhooks", { invalid: true });
    expect(Object.keys(empty.body.errors ?? {}).sort()).toEqual(["events", "url"]);

    expect(await rowsOf("webhook_endpoints", user.id)).toHaveLength(0);
    expect(await rowsOf("api_keys", user.id)).toHaveLength(0);
    expect(await rowsOf("account_activity", user.id)).toHaveLength(activity);

    const good = await api("POST", "/api/v1/webhooks", { body: { url: "https://hooks.example.com/in", events: ["balance.low"] } });
    expect(good.status).toBe(201);
    expect(await rowsOf("webhook_endpoints", user.id)).toHaveLength(1);
  });

  it("refuse a bad query or path parameter before the hook looks for the endpoint", async () => {
    const owner = await customer(shop);
    const made = await sessionOf(owner)<{ webhook: { id: string } }>("POST", "/api/v1/webhooks", {
      body: { url: "https://hooks.example.com/in", events: ["balance.low"] },
    });
    const stranger = sessionOf(await customer(shop));
    const deliveries = `/api/v1/webhooks/${made.body.webhook.id}/deliveries`;
    // The hook answers another customer's endpoint with a 404 before it reads the query.
    expect((await stranger<Problem>("GET", `${deliveries}?status=failed`)).status).toBe(404);
    const query = await stranger<Problem>("GET", `${deliveries}?status=lost&limit=ten`, { invalid: true });
    expect(query.status).toBe(400);
    expect(query.body.errors).toEqual({
      status: { code: "validation_invalid_value", message: "Status must be one of pending, delivering, succeeded, failed." },
      limit: { code: "validation_invalid_value", message: "Limit must be a whole number from 1 to 100." },
    });

    const path = await stranger<Problem>("DELETE", "/api/v1/webhooks/not-an-id", { invalid: true });
    expect(path.status).toBe(400);
    expect(Object.keys(path.body.errors ?? {})).toEqual(["id"]);
    expect((await stranger<Problem>("DELETE", `/api/v1/webhooks/${made.body.webhook.id}`)).status).toBe(404);
    expect(await rowsOf("webhook_endpoints", owner.id)).toHaveLength(1);
  });

  it("leave routes the document does not list to PocketBase", async () => {
    const user = await customer(shop);
    const res = await fetch(`${shop.tpb.url}/api/collections/proxies/records?perPage=abc`, {
      headers: { Authorization: user.pb.authStore.token },
    });
    expect(res.headers.get("content-type")).not.toContain("problem+json");
  });
});
