// The older /api/v1 routes in the developer API's contract (issue #18): stock, prices,
// countries and this month's usage of one's proxies; the affiliate figures and payout
// method; credit packages and the checkout; a new support ticket; Stripe's webhook. Each is
// called through apiClient (so its answers must match the OpenAPI document) with a session
// and, where its scope allows, an API key; a key without the scope is refused
// (insufficient_scope), and account settings refuse keys altogether (session_required).
// Also: every /api/v1 route the hooks declare is an operation of the document and the
// reverse, and PUT /account/ip-allowlist's Idempotency-Key.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPENAPI_FILE, apiClient } from "../support/api-contract.ts";
import { apiCallers, type Problem } from "../support/api-keys.ts";
import { declaredRoutes } from "../support/hook-routes.ts";
import { addStock, customer, ledgerOf, purchase } from "../support/shop.ts";
import { paidSession, stripeSignature, TEST_WEBHOOK_SECRET } from "../support/stripe-mock.ts";
import { useShop } from "../support/use-shop.ts";

type Json = Record<string, unknown>;

// Stripe through stripe-mock: checkouts are pending until Stripe's (signed) webhook says paid.
const shop = useShop({ stripe: true });

const { sessionOf, keyOf } = apiCallers(shop);

const ALL_SCOPES = ["read", "purchase", "rotate", "webhooks"];

async function expectRefused(answer: Promise<{ status: number; body: unknown }>, status: number, code: string) {
  const { body } = await answer;
  expect(body).toMatchObject({ status, code });
}

describe("the routes the hooks declare under /api/v1", () => {
  it("are each an operation of the OpenAPI document, and the document has no operation without a route", () => {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const declared = declaredRoutes().filter((route) => route.split(" ")[1]?.startsWith("/api/v1/"));
    expect(declared.length).toBeGreaterThan(20);
    expect(
      declared.filter((route) => !documented.includes(route)),
      "routes missing from the document",
    ).toEqual([]);
    expect(
      documented.filter((route) => !declared.includes(route)),
      "operations without a route",
    ).toEqual([]);
  });
});

describe("stock, prices, countries and this month's usage", () => {
  it("answer a session and a read key alike, and refuse a key without the read scope", async () => {
    const user = await customer(shop, 10_000);
    const where = `S${crypto.randomUUID().slice(0, 5)}`;
    await addStock(shop, { country: where, city: "Berlin", count: 3 });
    const bought = await purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 1 });
    const proxyId = bought.proxies[0]!.id;

    for (const api of [sessionOf(user), await keyOf(user, ["read"])]) {
      const prices = await api<Record<string, number>>("GET", "/api/v1/proxies/prices");
      expect(prices.status).toBe(200);
      expect(prices.body["RESIDENTIAL"]).toBeGreaterThan(0);

      const stock = await api<{ unit_price_cents: number; for_sale: boolean; locations: Json[] }>(
        "GET",
        "/api/v1/proxies/stock?type=RESIDENTIAL",
      );
      expect(stock.status).toBe(200);
      expect(stock.body).toMatchObject({ type: "RESIDENTIAL", for_sale: true, unit_price_cents: prices.body["RESIDENTIAL"] });
      expect(stock.body.locations.filter((l) => l["country"] === where)).toEqual([
        { country: where, country_name: expect.any(String), state: "", city: "Berlin", available: 2 },
      ]);

      expect((await api("GET", "/api/v1/proxies/countries")).body).toEqual([where]);

      const usage = await api<Record<string, Json>>("GET", "/api/v1/proxies/usage-summary");
      expect(Object.keys(usage.body)).toEqual([proxyId]);
      expect(usage.body[proxyId]).toMatchObject({ bytes: 0, quota_reached: false });
    }

    const missing = await sessionOf(user)<Problem>("GET", "/api/v1/proxies/stock?type=GOLD", { invalid: true });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.["type"]?.message).toBe("Type must be one of RESIDENTIAL, DATACENTER, SOCKS5, HTTP, HTTPS.");

    const webhooksOnly = await keyOf(user, ["webhooks"]);
    for (const path of [
      "/api/v1/proxies/prices",
      "/api/v1/proxies/stock?type=HTTP",
      "/api/v1/proxies/countries",
      "/api/v1/proxies/usage-summary",
    ]) {
      await expectRefused(webhooksOnly<Problem>("GET", path), 403, "insufficient_scope");
    }
  });
});

describe("the affiliate routes", () => {
  it("show the figures to a read key; the payout method is changed from a session only", async () => {
    const user = await customer(shop);
    const figures = await (await keyOf(user, ["read"]))<{ code: string; payout_method: string }>("GET", "/api/v1/affiliate");
    expect(figures.status).toBe(200);
    expect(figures.body.code).toMatch(/^[A-Z0-9]{4,}$/);
    expect(figures.body.payout_method).toBe("");
    await expectRefused((await keyOf(user, ["purchase"]))("GET", "/api/v1/affiliate"), 403, "insufficient_scope");

    const affiliate = () => shop.su.collection("affiliates").getFirstListItem(shop.su.filter("user_id = {:id}", { id: user.id }));
    const set = await sessionOf(user)<{ payout_method: string; code: string }>("PUT", "/api/v1/affiliate/payout-method", {
      body: { payout_method: "  PayPal: me@example.com  " },
      key: null,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ code: figures.body.code, payout_method: "PayPal: me@example.com" });
    expect((await affiliate())["payout_method"]).toBe("PayPal: me@example.com");

    const byKey = (await keyOf(user, ALL_SCOPES))<Problem>("PUT", "/api/v1/affiliate/payout-method", {
      body: { payout_method: "someone else's account" },
      key: null,
    });
    await expectRefused(byKey, 403, "session_required");
    const tooLong = await sessionOf(user)<Problem>("PUT", "/api/v1/affiliate/payout-method", {
      body: { payout_method: "x".repeat(501) },
      key: null,
      invalid: true,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors?.["payout_method"]?.message).toMatch(/^Payout method must be at most 500 characters/);
    expect((await affiliate())["payout_method"]).toBe("PayPal: me@example.com");
  });
});

describe("credit packages and the checkout", () => {
  it("sell a package to a purchase key once per Idempotency-Key, and refuse a key without the purchase scope", async () => {
    const user = await customer(shop);
    const packages = await (
      await keyOf(user, ["read"])
    )<{ provider: string; packages: { id: string; price_cents: number }[] }>("GET", "/api/v1/credits/packages");
    expect(packages.body.provider).toBe("stripe");
    expect(packages.body.packages.map((p) => p.id)).toEqual(["package-10", "package-25", "package-50", "package-100"]);

    const payments = () => shop.su.collection("payments").getFullList({ filter: shop.su.filter("user_id = {:id}", { id: user.id }) });
    await expectRefused(
      (await keyOf(user, ["read"]))("POST", "/api/v1/credits/checkout", { body: { package_id: "package-25" } }),
      403,
      "insufficient_scope",
    );
    expect(await payments()).toHaveLength(0);

    const buyer = await keyOf(user, ["purchase"]);
    const key = crypto.randomUUID();
    type Checkout = { payment: { id: string; status: string; amount_cents: number }; checkout_url: string | null; balance_cents: number };
    const first = await buyer<Checkout>("POST", "/api/v1/credits/checkout", { body: { package_id: "package-25" }, key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ payment: { status: "pending", amount_cents: 2400 }, balance_cents: 0 });
    expect(first.body.checkout_url).toMatch(/^https:\/\//);
    const replay = await buyer<Checkout>("POST", "/api/v1/credits/checkout", { body: { package_id: "package-25" }, key });
    expect(replay.body.payment.id).toBe(first.body.payment.id);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const reused = await buyer<Problem>("POST", "/api/v1/credits/checkout", { body: { package_id: "package-50" }, key });
    expect(reused.status).toBe(422);
    const unkeyed = await buyer<Problem>("POST", "/api/v1/credits/checkout", {
      body: { package_id: "package-50" },
      key: null,
      invalid: true,
    });
    expect(unkeyed.status).toBe(400);
    expect(unkeyed.body.detail).toContain("An Idempotency-Key header is required");
    expect((await payments()).map((p) => p.id)).toEqual([first.body.payment.id]);

    const unverified = await customer(shop, 0, { verified: false });
    const refused = await sessionOf(unverified)<Problem>("POST", "/api/v1/credits/checkout", { body: { package_id: "package-10" } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.["email"]?.code).toBe("email_not_verified");
  });
});

describe("Stripe's webhook", () => {
  it("credits a signed checkout once, and refuses a bad signature, changing nothing", async () => {
    const user = await customer(shop);
    const { payment } = (
      await sessionOf(user)<{ payment: { id: string; provider_session_id: string; amount_cents: number } }>(
        "POST",
        "/api/v1/credits/checkout",
        { body: { package_id: "package-10" } },
      )
    ).body;
    const stripe = apiClient(shop.tpb.url, null);
    const event = { id: `evt_${payment.id}`, type: "checkout.session.completed", data: { object: paidSession(payment) } };
    const signed = (secret: string) => ({ "Stripe-Signature": stripeSignature(JSON.stringify(event), secret) });

    const forged = await stripe<Problem>("POST", "/api/v1/payments/stripe/webhook", {
      body: event,
      key: null,
      headers: signed("whsec_wrong"),
    });
    expect(forged.status).toBe(400);
    expect(forged.body.detail).toBe("Invalid Stripe signature.");
    expect((await ledgerOf(shop, user.id)).balance).toBe(0);

    const delivered = await stripe("POST", "/api/v1/payments/stripe/webhook", {
      body: event,
      key: null,
      headers: signed(TEST_WEBHOOK_SECRET),
    });
    expect(delivered.body).toEqual({ received: true, outcome: "credited" });
    const again = await stripe("POST", "/api/v1/payments/stripe/webhook", { body: event, key: null, headers: signed(TEST_WEBHOOK_SECRET) });
    expect(again.body).toEqual({ received: true, outcome: "already_paid" });
    expect((await ledgerOf(shop, user.id)).balance).toBe(1000);
  });
});

describe("a new support ticket", () => {
  it("is opened from a session with its first message; a key is refused and fields are checked", async () => {
    const user = await customer(shop);
    const tickets = () => shop.su.collection("support_tickets").getFullList({ filter: shop.su.filter("user_id = {:id}", { id: user.id }) });
    const opened = await sessionOf(user)<{ ticket: Json; message: Json }>("POST", "/api/v1/support/tickets", {
      body: { subject: "Proxy does not connect", message: "Since this morning my proxy refuses every connection.", priority: "high" },
      key: null,
    });
    expect(opened.status).toBe(200);
    expect(opened.body.ticket).toMatchObject({ subject: "Proxy does not connect", priority: "high", status: "open", user_id: user.id });
    expect(opened.body.message).toMatchObject({ ticket_id: opened.body.ticket["id"], sender_id: user.id, is_admin_message: false });

    const byKey = (await keyOf(user, ALL_SCOPES))("POST", "/api/v1/support/tickets", {
      body: { subject: "Sent by a script", message: "An API key must not open tickets." },
      key: null,
    });
    await expectRefused(byKey, 403, "session_required");
    const bad = await sessionOf(user)<Problem>("POST", "/api/v1/support/tickets", {
      body: { subject: "Hi", message: "short" },
      key: null,
      invalid: true,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(["message", "subject"]);
    expect((await tickets()).map((t) => t.id)).toEqual([opened.body.ticket["id"]]);
  });
});

describe("PUT /api/v1/account/ip-allowlist with an Idempotency-Key", () => {
  it("answers a retry with the first answer and changes nothing again; the key with another list is a 422", async () => {
    const user = await customer(shop);
    const api = await keyOf(user, ["rotate"]);
    const stored = async () => (await shop.su.collection("users").getOne(user.id))["ip_allowlist"];
    const activity = async () =>
      (await shop.su.collection("account_activity").getFullList({ filter: shop.su.filter("user = {:id}", { id: user.id }) })).length;
    const key = crypto.randomUUID();

    const first = await api<{ entries: string[] }>("PUT", "/api/v1/account/ip-allowlist", { body: { entries: ["203.0.113.7"] }, key });
    expect(first.body).toEqual({ entries: ["203.0.113.7"] });
    expect(first.headers.get("Idempotent-Replayed")).toBe("false");
    await api("PUT", "/api/v1/account/ip-allowlist", { body: { entries: ["198.51.100.0/24"] } });
    expect(await stored()).toEqual(["198.51.100.0/24"]);
    const logged = await activity();

    const replay = await api<{ entries: string[] }>("PUT", "/api/v1/account/ip-allowlist", { body: { entries: ["203.0.113.7"] }, key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ entries: ["203.0.113.7"] });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await stored()).toEqual(["198.51.100.0/24"]);
    expect(await activity()).toBe(logged);

    const reused = await api<Problem>("PUT", "/api/v1/account/ip-allowlist", { body: { entries: ["192.0.2.1"] }, key });
    expect(reused.status).toBe(422);
    expect(reused.body.errors?.["idempotency_key"]?.code).toBe("idempotency_key_reused");
    expect(await stored()).toEqual(["198.51.100.0/24"]);
  });
});
