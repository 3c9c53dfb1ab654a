// Customer webhooks (issue #18), the routes of /api/v1/webhooks (pb_hooks/webhooks.pb.js,
// lib/webhooks/routes.js): endpoints made, changed, listed and removed with a session or an
// API key with the "webhooks" scope (a key without it is refused), every refusal naming its
// field, at most 10 endpoints, another customer's endpoint a 404; the signing secret only in
// the answers of create and rotate-secret; the deliveries listed newest first with cursor
// paging; a resend makes a new pending delivery that a loopback receiver gets, signed so the
// `standardwebhooks` verifier accepts it with the secret from create (then from rotation).
// Every answer goes through apiClient, which fails any answer outside the OpenAPI document.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { apiCallers, type Problem } from "../support/api-keys.ts";
import { customer, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { signatureHeaders, until, useWebhookReceiver } from "../support/webhook-receiver.ts";

type Json = Record<string, unknown>;
interface WebhookView {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  balance_low_cents: number | null;
  disabled_reason: string;
  created: string;
  updated: string;
}
interface Created {
  webhook: WebhookView;
  secret: string;
}
interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  last_status_code: number;
  last_response_ms: number;
  created: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}
interface DeliveryPage {
  items: Delivery[];
  next_cursor: string | null;
}

const shop = useShop();

const { sessionOf, keyOf } = apiCallers(shop);

const URL_A = "https://hooks.example.com/a";

/** Adds a delivery row for `endpoint` as an event source would (superuser; not due unless pending). */
async function addDelivery(user: Customer, endpoint: string, status: string, payload: Json = { type: "payment.succeeded" }) {
  return shop.su.collection("webhook_deliveries").create<{ id: string; message_id: string }>({
    endpoint,
    user: user.id,
    event: "payment.succeeded",
    message_id: `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
    payload: JSON.stringify(payload),
    status,
    attempts: status === "pending" ? 0 : 1,
    last_status_code: status === "succeeded" ? 200 : 0,
  });
}

describe("webhook endpoints", () => {
  it("are made, listed, changed and removed; the secret is only in the create answer and stored sealed", async () => {
    const user = await customer(shop);
    const api = sessionOf(user);
    const created = await api<Created>("POST", "/api/v1/webhooks", {
      body: { url: ` ${URL_A} `, events: ["payment.succeeded", "purchase.completed"], description: "Orders", balance_low_cents: null },
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toMatchObject({
      url: URL_A,
      description: "Orders",
      events: ["purchase.completed", "payment.succeeded"], // the order
      enabled: true,
      balance_low_cents: null,
      disabled_reason: "",
    });
    const stored = await shop.su.collection("webhook_endpoints").getOne(webhook.id);
    expect(stored["user"]).toBe(user.id);
    expect(String(stored["secret"])).not.toContain(secret.slice(6));

    const listed = await api<{ items: WebhookView[] }>("GET", "/api/v1/webhooks");
    expect(listed.body.items).toEqual([webhook]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const changed = await api<WebhookView>("PATCH", `/api/v1/webhooks/${webhook.id}`, {
      body: { events: ["balance.low"], balance_low_cents: 500, enabled: false, description: "" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: webhook.id, url: URL_A, events: ["balance.low"], balance_low_cents: 500, enabled: false });
    expect(changed.body.description).toBe("");
    expect(JSON.stringify(changed.body)).not.toContain("whsec_");
    await shop.su.collection("webhook_endpoints").update(webhook.id, { disabled_reason: "Failing for 24 hours" });
    const on = await api<WebhookView>("PATCH", `/api/v1/webhooks/${webhook.id}`, { body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: "", events: ["balance.low"], balance_low_cents: 500 });

    const delivery = await addDelivery(user, webhook.id, "failed");
    const removed = await api<WebhookView>("DELETE", `/api/v1/webhooks/${webhook.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.id).toBe(webhook.id);
    expect((await api<{ items: unknown[] }>("GET", "/api/v1/webhooks")).body.items).toEqual([]);
    await expect(shop.su.collection("webhook_deliveries").getOne(delivery.id)).rejects.toMatchObject({ status: 404 });
    expect((await api<Problem>("DELETE", `/api/v1/webhooks/${webhook.id}`)).status).toBe(404);

    await api("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["proxy.expired"] } }).then(({ body }) =>
      api("POST", `/api/v1/webhooks/${(body as unknown as Created).webhook.id}/rotate-secret`),
    );
    const activity = await shop.su
      .collection("account_activity")
      .getFullList({ filter: `user = "${user.id}" && kind ~ "webhook_"`, sort: "created" });
    expect(activity.map((row) => row["kind"])).toEqual([
      "webhook_created",
      "webhook_updated",
      "webhook_updated",
      "webhook_deleted",
      "webhook_created",
      "webhook_secret_rotated",
    ]);
    expect(activity[0]?.["summary"]).toContain(URL_A);
  });

  it("refuse bad fields, each under its name, and an 11th endpoint", async () => {
    const user = await customer(shop);
    const api = sessionOf(user);
    const refused = async (body: Json) => {
      const answer = await api<Problem>("POST", "/api/v1/webhooks", { body, invalid: true });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return Object.keys(answer.body.errors ?? {}).sort();
    };
    expect(await refused({ url: URL_A, events: [] })).toEqual(["events"]);
    expect(await refused({ url: URL_A, events: ["purchase.completed", "proxy.exploded"] })).toEqual(["events"]);
    expect(await refused({ url: `https://hooks.example.com/${"a".repeat(2000)}`, events: ["balance.low"] })).toEqual(["url"]);
    expect(await refused({ url: "ftp://hooks.example.com/", events: ["balance.low"] })).toEqual(["url"]);
    expect(await refused({ url: "https://user:pw@hooks.example.com/", events: ["balance.low"] })).toEqual(["url"]);
    expect(await refused({ url: "", events: "balance.low", description: "x".repeat(201), balance_low_cents: 0 })).toEqual([
      "balance_low_cents",
      "description",
      "events",
      "url",
    ]);
    const long = await api<Problem>("POST", "/api/v1/webhooks", {
      body: { url: `${URL_A}${"a".repeat(2000)}`, events: ["balance.low"] },
      invalid: true,
    });
    expect(long.body.errors?.["url"]?.message).toBe("The URL must be at most 2000 characters.");
    expect(await shop.su.collection("webhook_endpoints").getFullList({ filter: `user = "${user.id}"` })).toHaveLength(0);

    for (let i = 0; i < 10; i++) {
      expect((await api("POST", "/api/v1/webhooks", { body: { url: `${URL_A}/${i}`, events: ["proxy.expired"] } })).status).toBe(201);
    }
    const eleventh = await api<Problem>("POST", "/api/v1/webhooks", { body: { url: `${URL_A}/10`, events: ["proxy.expired"] } });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.detail).toContain("10 webhook endpoints");
    const list = await api<{ items: WebhookView[] }>("GET", "/api/v1/webhooks");
    expect(list.body.items).toHaveLength(10);
    expect(list.body.items[0]?.url).toBe(`${URL_A}/9`); // newest first

    const one = list.body.items[0]!.id;
    const bad = await api<Problem>("PATCH", `/api/v1/webhooks/${one}`, {
      body: { enabled: "yes", events: [], url: "nope" },
      invalid: true,
    });
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(["enabled", "events", "url"]);
  });

  it("are a 404 to another customer, and keep out of their list", async () => {
    const owner = await customer(shop);
    const made = await sessionOf(owner)<Created>("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["balance.low"] } });
    const id = made.body.webhook.id;
    const delivery = await addDelivery(owner, id, "failed");
    const stranger = sessionOf(await customer(shop));
    expect((await stranger<{ items: unknown[] }>("GET", "/api/v1/webhooks")).body.items).toEqual([]);
    expect((await stranger<Problem>("PATCH", `/api/v1/webhooks/${id}`, { body: { enabled: false } })).status).toBe(404);
    expect((await stranger<Problem>("DELETE", `/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await stranger<Problem>("POST", `/api/v1/webhooks/${id}/rotate-secret`)).status).toBe(404);
    expect((await stranger<Problem>("GET", `/api/v1/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await stranger<Problem>("POST", `/api/v1/webhooks/${id}/deliveries/${delivery.id}/resend`)).status).toBe(404);
    // The owner's other endpoint does not reach this delivery either.
    const other = await sessionOf(owner)<Created>("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["balance.low"] } });
    expect(
      (await sessionOf(owner)<Problem>("POST", `/api/v1/webhooks/${other.body.webhook.id}/deliveries/${delivery.id}/resend`)).status,
    ).toBe(404);
    const still = await shop.su.collection("webhook_endpoints").getOne(id);
    expect(still["enabled"]).toBe(true);
    expect(await shop.su.collection("webhook_deliveries").getFullList({ filter: `endpoint = "${id}"` })).toHaveLength(1);
  });

  it("work with an API key that has the webhooks scope; a key without it is refused", async () => {
    const user = await customer(shop);
    const hooks = await keyOf(user, ["webhooks"]);
    const made = await hooks<Created>("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["proxy.quota_reached"] } });
    expect(made.status).toBe(201);
    expect((await hooks<{ items: WebhookView[] }>("GET", "/api/v1/webhooks")).body.items.map((w) => w.id)).toEqual([made.body.webhook.id]);
    const reader = await keyOf(user, ["read", "purchase", "rotate"]);
    for (const [method, path] of [
      ["GET", "/api/v1/webhooks"],
      ["POST", `/api/v1/webhooks/${made.body.webhook.id}/rotate-secret`],
      ["DELETE", `/api/v1/webhooks/${made.body.webhook.id}`],
    ] as const) {
      const refused = await reader<Problem>(method, path);
      expect(refused.body, `${method} ${path}`).toMatchObject({ status: 403, code: "insufficient_scope" });
    }
    expect((await hooks<{ items: unknown[] }>("GET", "/api/v1/webhooks")).body.items).toHaveLength(1);
  });

  it("replay a create sent again with its Idempotency-Key: one endpoint, the same secret", async () => {
    const user = await customer(shop);
    const api = sessionOf(user);
    const key = crypto.randomUUID();
    const body = { url: URL_A, events: ["purchase.completed"] };
    const first = await api<Created>("POST", "/api/v1/webhooks", { body, key });
    const again = await api<Created>("POST", "/api/v1/webhooks", { body, key });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await api<{ items: unknown[] }>("GET", "/api/v1/webhooks")).body.items).toHaveLength(1);
  });
});

describe("deliveries", () => {
  it("are listed newest first with a status filter and cursor paging", async () => {
    const user = await customer(shop);
    const api = sessionOf(user);
    const { webhook } = (await api<Created>("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["payment.succeeded"] } })).body;
    const made = [];
    for (const status of ["failed", "succeeded", "failed"]) made.push((await addDelivery(user, webhook.id, status)).id);
    const path = `/api/v1/webhooks/${webhook.id}/deliveries`;
    const first = await api<DeliveryPage>("GET", `${path}?limit=2`);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api<DeliveryPage>("GET", `${path}?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.items, ...second.body.items].map((d) => d.id)).toEqual([...made].reverse());
    expect(first.body.items[0]).toMatchObject({ event: "payment.succeeded", status: "failed", attempts: 1, delivered_at: null });
    const failed = await api<DeliveryPage>("GET", `${path}?status=failed`);
    expect(failed.body.items.map((d) => d.id)).toEqual([made[2], made[0]]);
    const bad = await api<Problem>("GET", `${path}?status=lost`, { invalid: true });
    expect(bad.body).toMatchObject({ status: 400, errors: { status: expect.any(Object) } });
    expect((await api<Problem>("GET", `${path}?cursor=garbage`, { invalid: true })).body.errors).toHaveProperty("cursor");
  });

  describe("sent to a loopback receiver", () => {
    const receiver = useWebhookReceiver();
    /** How long a delivery may take to arrive (the dispatcher polls every 200 ms). */
    const WAIT_MS = 10_000;

    it("a resend is a new pending delivery, signed with the endpoint's secret; after a rotation only the new secret verifies", async () => {
      const user = await customer(shop);
      const api = sessionOf(user);
      const { webhook, secret } = (
        await api<Created>("POST", "/api/v1/webhooks", { body: { url: receiver.url, events: ["payment.succeeded"] } })
      ).body;
      const payload = { type: "payment.succeeded", timestamp: new Date().toISOString(), data: { payment_id: "p1", amount_cents: 2500 } };
      const original = await addDelivery(user, webhook.id, "failed", payload);

      const resent = await api<Delivery>("POST", `/api/v1/webhooks/${webhook.id}/deliveries/${original.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ event: "payment.succeeded", status: "pending", attempts: 0 });
      expect(resent.body.id).not.toBe(original.id);
      const got = await until(
        () => receiver.requests.filter((r) => r.headers["webhook-id"] === original.message_id),
        (r) => r.length > 0,
        WAIT_MS,
      );
      expect(new Webhook(secret).verify(got[0]!.body, signatureHeaders(got[0]!))).toEqual(payload);
      const done = await until(
        () => api<DeliveryPage>("GET", `/api/v1/webhooks/${webhook.id}/deliveries`),
        (page) => page.body.items[0]?.status === "succeeded",
        WAIT_MS,
      );
      expect(done.body.items[0]).toMatchObject({ id: resent.body.id, attempts: 1, last_status_code: 200, next_attempt_at: null });
      expect(done.body.items[0]!.delivered_at).toEqual(expect.any(String));
      expect(done.body.items[0]!.last_response_ms).toBeGreaterThanOrEqual(0);

      const rotated = await api<Created>("POST", `/api/v1/webhooks/${webhook.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(secret);
      expect(rotated.body.webhook.id).toBe(webhook.id);
      const before = receiver.requests.length;
      await api("POST", `/api/v1/webhooks/${webhook.id}/deliveries/${original.id}/resend`);
      const after = await until(
        () => receiver.requests.slice(before),
        (r) => r.length > 0,
        WAIT_MS,
      );
      expect(new Webhook(rotated.body.secret).verify(after[0]!.body, signatureHeaders(after[0]!))).toEqual(payload);
      expect(() => new Webhook(secret).verify(after[0]!.body, signatureHeaders(after[0]!))).toThrow();

      // A turned-off endpoint is not sent to: its resend is refused.
      await api("PATCH", `/api/v1/webhooks/${webhook.id}`, { body: { enabled: false } });
      const off = await api<Problem>("POST", `/api/v1/webhooks/${webhook.id}/deliveries/${original.id}/resend`);
      expect(off.status).toBe(409);
    });
  });
});
