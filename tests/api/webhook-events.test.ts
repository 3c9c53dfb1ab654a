// Customer webhook events from where things happen (issue #18, lib/webhooks/events.js and
// balance-low.js): a purchase queues purchase.completed (delivered to a loopback receiver,
// signed so the standardwebhooks verifier accepts it, no proxy password in it) and a replay
// or a refused purchase queues nothing; a debit under an endpoint's balance.low threshold
// queues one event, a second debit below it none; the expiry job queues proxy.expiring (3
// days ahead, once a term) and proxy.expired; usage past 80% and then 100% of a proxy's
// quota queues proxy.quota_reached once each per month (POST /api/admin/jobs/webhook-events);
// a credit purchase through the test provider queues payment.succeeded. The activity log
// gets "purchase" and "api_key_spent" rows inside the order's transaction.
//
// Endpoints are made as the superuser with a secret sealed here the way
// pb_hooks/lib/webhooks/queue.js sealSecret does ("v1:" + PocketBase's $security.encrypt:
// base64 of AES-256-GCM nonce | ciphertext | tag under SHOP_CREDENTIALS_KEY).
import { randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { eventProblems } from "../support/api-contract.ts";
import type { TestUser } from "../support/pocketbase.ts";
import { sealed } from "../support/proxy-columns.ts";
import { addStock, checkout, customer, DAY, iso, post, proxyBuyer, purchase, runExpiryJob, setProxyColumns } from "../support/shop.ts";
import { insertUsageRows } from "../support/usage-rows.ts";
import { useShop } from "../support/use-shop.ts";
import { signatureHeaders, until, useWebhookReceiver } from "../support/webhook-receiver.ts";

// The reminder step marks proxy.expiring with its mail: the shop needs a working SMTP sink.
const shop = useShop({ mail: true });

/** A loopback receiver; each endpoint gets its own path. */
const receiver = useWebhookReceiver();

interface Endpoint {
  id: string;
  secret: string;
  path: string;
}

/** An enabled endpoint of `user` for `events` (balance_low_cents: its threshold). */
async function endpointOf(user: TestUser, events: string[], balanceLowCents = 0): Promise<Endpoint> {
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const path = `/hooks/${randomUUID()}`;
  const record = await shop.su.collection("webhook_endpoints").create({
    user: user.id,
    url: receiver.origin + path,
    events,
    enabled: true,
    secret: sealed(secret),
    balance_low_cents: balanceLowCents,
  });
  return { id: record.id, secret, path };
}

interface Delivery {
  id: string;
  event: string;
  payload: string;
  status: string;
}
type Payload = { type: string; timestamp: string; data: Record<string, unknown> };

/** The queued deliveries of an endpoint, oldest first, with their payloads parsed. */
async function queued(endpoint: Endpoint): Promise<(Delivery & { body: Payload })[]> {
  const rows = await shop.su
    .collection("webhook_deliveries")
    .getFullList<Delivery>({ filter: shop.su.filter("endpoint = {:id}", { id: endpoint.id }), sort: "created,id" });
  return rows.map((row) => ({ ...row, body: JSON.parse(row.payload) as Payload }));
}

/** The bodies the receiver got at `endpoint`, each checked against its secret with the standardwebhooks verifier. */
async function deliveredTo(endpoint: Endpoint, count: number): Promise<Payload[]> {
  const got = await until(
    () => receiver.requests.filter((r) => r.path === endpoint.path),
    (list) => list.length >= count,
  );
  return got.map((r) => {
    const payload = new Webhook(endpoint.secret).verify(r.body, signatureHeaders(r)) as Payload;
    expect(eventProblems(payload), "the event as the OpenAPI document's webhooks section describes it").toEqual([]);
    return payload;
  });
}

const runEventsJob = () => shop.su.send<{ quota_reached: number }>("/api/admin/jobs/webhook-events", { method: "POST" });

/** The account_activity rows of a user about orders, oldest first (the collection comes with the activity log). */
const activityOf = (userId: string) =>
  shop.su.collection("account_activity").getFullList({
    filter: shop.su.filter('user = {:id} && (kind = "purchase" || kind = "renewal" || kind = "api_key_spent")', { id: userId }),
    sort: "created,id",
  });

const country = () => `W${randomUUID().slice(0, 6)}`;

describe("purchase.completed", () => {
  it("is delivered signed after a purchase, without passwords; a replay and a refused purchase queue nothing", async () => {
    const user = await customer(shop, 10_000);
    const endpoint = await endpointOf(user, ["purchase.completed"]);
    const other = await endpointOf(user, ["proxy.expired"]); // not subscribed: gets nothing
    const where = country();
    await addStock(shop, { country: where, count: 2 });

    const key = randomUUID();
    const result = await purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 2 }, key);
    const [payload] = await deliveredTo(endpoint, 1);
    expect(payload!.type).toBe("purchase.completed");
    expect(payload!.data).toEqual({
      order: result.order,
      proxies: result.proxies.map(({ password: _password, ...rest }) => rest),
      balance_cents: result.balance_cents,
    });
    expect(JSON.stringify(payload)).not.toContain(result.proxies[0]!.password);
    expect(result.balance_cents).toBe(10_000 - result.order.total_cents);

    // The same Idempotency-Key again: the same order, no second event.
    const replay = await purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 2 }, key);
    expect(replay.order.id).toBe(result.order.id);
    // No stock left: refused, nothing queued.
    await expect(purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 1 })).rejects.toMatchObject({ status: 409 });
    expect((await queued(endpoint)).map((d) => d.event)).toEqual(["purchase.completed"]);
    expect(await queued(other)).toEqual([]);

    const rows = await activityOf(user.id);
    expect(rows.map((r) => [r["kind"], r["summary"]])).toEqual([
      [
        "purchase",
        `Bought 2 Residential proxies in ${where} for $${(result.order.total_cents / 100).toFixed(2)} (order ${result.order.id.slice(0, 8).toUpperCase()})`,
      ],
    ]);
  });

  it("a purchase and a renewal made with an API key are logged as spent with it", async () => {
    const user = await customer(shop, 10_000);
    const created = await post<{ key: string; api_key: { id: string } }>(user.pb, "/api/v1/api-keys", {
      name: "CI robot",
      scopes: ["read", "purchase"],
    });
    const where = country();
    await addStock(shop, { country: where, count: 1 });
    const withKey = shop.tpb.client();
    withKey.beforeSend = (url, options) => {
      options.headers = { ...(options.headers as Record<string, string>), Authorization: `Bearer ${created.key}` };
      return { url, options };
    };
    const bought = await purchase(withKey, { type: "RESIDENTIAL", country: where, quantity: 1 });
    const renewed = await post(withKey, "/api/v1/proxies/renew", { proxy_ids: [bought.proxies[0]!.id] });
    const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    const number = (id: string) => id.slice(0, 8).toUpperCase();
    const rows = await activityOf(user.id);
    // One order's rows share their millisecond: compared in a stable order.
    const sorted = (list: unknown[][]) => list.map((r) => JSON.stringify(r)).sort();
    expect(sorted(rows.map((r) => [r["kind"], r["summary"], r["api_key_id"]]))).toEqual(
      sorted([
        [
          "purchase",
          `Bought 1 Residential proxy in ${where} for ${usd(bought.order.total_cents)} (order ${number(bought.order.id)})`,
          created.api_key.id,
        ],
        [
          "api_key_spent",
          `Spent ${usd(bought.order.total_cents)} with API key “CI robot” (order ${number(bought.order.id)})`,
          created.api_key.id,
        ],
        [
          "renewal",
          `Renewed 1 Residential proxy for 30 days for ${usd(renewed.order.total_cents)} (order ${number(renewed.order.id)})`,
          created.api_key.id,
        ],
        [
          "api_key_spent",
          `Spent ${usd(renewed.order.total_cents)} with API key “CI robot” (order ${number(renewed.order.id)})`,
          created.api_key.id,
        ],
      ]),
    );
    // A session's order is not spent with a key.
    await addStock(shop, { country: where, count: 1 });
    await purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 1 });
    expect((await activityOf(user.id)).filter((r) => r["kind"] === "api_key_spent")).toHaveLength(2);
  });
});

describe("balance.low", () => {
  const debit = (userId: string, cents: number) =>
    post(shop.admin, `/api/admin/users/${userId}/balance`, { transaction_type: "DEBIT", amount_cents: cents, description: "test debit" });

  it("is queued once when a debit crosses an endpoint's threshold, not for a debit already below it", async () => {
    const user = await customer(shop, 1500);
    const low = await endpointOf(user, ["balance.low"], 1000);
    const lower = await endpointOf(user, ["balance.low"], 500);
    const unsubscribed = await endpointOf(user, ["purchase.completed"], 1000);

    await debit(user.id, 400); // 1500 -> 1100: above both
    expect(await queued(low)).toEqual([]);
    await debit(user.id, 100); // 1100 -> 1000: at the threshold is not under it
    expect(await queued(low)).toEqual([]);
    await debit(user.id, 100); // 1000 -> 900: crosses 1000
    const [payload] = await deliveredTo(low, 1);
    expect(payload).toMatchObject({ type: "balance.low", data: { balance_cents: 900, threshold_cents: 1000 } });
    await debit(user.id, 300); // 900 -> 600: below it already
    expect((await queued(low)).map((d) => d.body.data)).toEqual([{ balance_cents: 900, threshold_cents: 1000 }]);
    expect(await queued(lower)).toEqual([]);
    expect(await queued(unsubscribed)).toEqual([]);
    // A purchase is a debit too: 600 -> under 500 crosses the second endpoint's threshold.
    const where = country();
    await addStock(shop, { country: where, count: 1 });
    const bought = await purchase(user.pb, { type: "RESIDENTIAL", country: where, quantity: 1 });
    expect(bought.balance_cents).toBeLessThan(500);
    expect((await queued(lower)).map((d) => d.body.data)).toEqual([{ balance_cents: bought.balance_cents, threshold_cents: 500 }]);
    expect(await queued(low)).toHaveLength(1);
  });
});

describe("the expiry job", () => {
  it("queues proxy.expiring 3 days ahead once per term, and proxy.expired when it expires a proxy", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 3 });
    const endpoint = await endpointOf(user, ["proxy.expiring", "proxy.expired"]);
    const [soon, gone, later] = proxies;
    const soonAt = iso(Date.now() + 2 * DAY);
    setProxyColumns(shop.tpb, [soon!.id], { expires_at: soonAt });
    setProxyColumns(shop.tpb, [gone!.id], { expires_at: iso(Date.now() - 60_000) });
    setProxyColumns(shop.tpb, [later!.id], { expires_at: iso(Date.now() + 5 * DAY) });

    await runExpiryJob(shop);
    await runExpiryJob(shop); // again: nothing new
    const rows = await queued(endpoint);
    expect(rows.map((d) => d.event).sort()).toEqual(["proxy.expired", "proxy.expiring"]);
    const expiring = rows.find((d) => d.event === "proxy.expiring")!.body.data;
    expect(expiring).toMatchObject({ proxy: { id: soon!.id, status: "ASSIGNED" }, expires_at: soonAt.replace(" ", "T") });
    expect(expiring["proxy"]).not.toHaveProperty("password");
    const expired = rows.find((d) => d.event === "proxy.expired")!.body.data;
    expect(expired).toEqual({ proxy: expect.objectContaining({ id: gone!.id, status: "EXPIRED", host: gone!.host }) });
    expect(expired["proxy"]).not.toHaveProperty("password");
    const delivered = await deliveredTo(endpoint, 2);
    expect(delivered.map((p) => p.type).sort()).toEqual(["proxy.expired", "proxy.expiring"]);
  });

  it("logs the job's automatic renewals in the customer's activity, without a request", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 1, cents: 900 });
    setProxyColumns(shop.tpb, [proxies[0]!.id], { auto_renew: true, expires_at: iso(Date.now() - 1000) });
    await runExpiryJob(shop);
    const renewal = (await activityOf(user.id)).filter((r) => r["kind"] === "renewal");
    expect(renewal.map((r) => [r["summary"], r["ip"], r["api_key_id"]])).toEqual([
      [expect.stringMatching(/^Automatic renewal of 1 Residential proxy for 30 days for \$4\.50 \(order [A-Z0-9]{8}\)$/), "", ""],
    ]);
  });
});

describe("proxy.quota_reached", () => {
  it("is queued at 80% and at 100% of the monthly quota, once each, from the usage rows", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 2 });
    const endpoint = await endpointOf(user, ["proxy.quota_reached"]);
    const [proxy, quiet] = proxies;
    setProxyColumns(shop.tpb, [proxy!.id, quiet!.id], { bandwidth_quota_bytes: 10_000 });
    // One row of this hour, rewritten with the hour's growing totals (as the gateway adds to it).
    const hour = Date.now();
    const usage = (bytes: number) =>
      insertUsageRows(shop.tpb, [{ proxy_id: proxy!.id, user_id: user.id, hour, bytes_up: 1000, bytes_down: bytes - 1000 }]);
    insertUsageRows(shop.tpb, [{ proxy_id: quiet!.id, user_id: user.id, hour, bytes_up: 100, bytes_down: 100 }]);
    usage(7000); // 70%: nothing
    await runEventsJob();
    expect(await queued(endpoint)).toEqual([]);

    usage(8200); // 82%
    expect((await runEventsJob()).quota_reached).toBeGreaterThanOrEqual(1);
    await runEventsJob();
    expect((await queued(endpoint)).map((d) => d.body.data)).toEqual([
      { proxy: expect.objectContaining({ id: proxy!.id }), level: 80, bytes: 8200, quota_bytes: 10_000 },
    ]);

    usage(10_100); // 101%
    await runEventsJob();
    await runEventsJob();
    const rows = await queued(endpoint);
    expect(rows.map((d) => [d.body.data["level"], d.body.data["bytes"]])).toEqual([
      [80, 8200],
      [100, 10_100],
    ]);
    expect(rows[1]!.body.data["proxy"]).not.toHaveProperty("password");
    const delivered = await deliveredTo(endpoint, 2);
    expect(delivered.map((p) => [p.type, p.data["level"]])).toEqual([
      ["proxy.quota_reached", 80],
      ["proxy.quota_reached", 100],
    ]);
  });

  it("finding 12: counts only the current owner's term: a resold proxy's new owner hears nothing of the old owner's bytes", async () => {
    const first = await proxyBuyer(shop, { count: 1 });
    const id = first.proxies[0]!.id;
    const hour = Date.now();
    // The first owner used 95% of the quota this hour (and was told).
    setProxyColumns(shop.tpb, [id], { bandwidth_quota_bytes: 10_000 });
    const firstEndpoint = await endpointOf(first.user, ["proxy.quota_reached"]);
    insertUsageRows(shop.tpb, [{ proxy_id: id, user_id: first.user.id, hour, bytes_down: 9500 }]);
    await runEventsJob();
    expect((await queued(firstEndpoint)).map((d) => d.body.data["level"])).toEqual([80]);

    // Released and bought by another customer in the same hour, with the same quota.
    await shop.admin.send(`/api/admin/proxies/${id}`, { method: "PATCH", body: { status: "AVAILABLE" } });
    const second = await customer(shop, 10_000);
    const endpoint = await endpointOf(second, ["proxy.quota_reached"]);
    expect((await purchase(second.pb, { type: "RESIDENTIAL", country: first.country, quantity: 1 })).proxies[0]!.id).toBe(id);
    setProxyColumns(shop.tpb, [id], { bandwidth_quota_bytes: 10_000 });
    insertUsageRows(shop.tpb, [{ proxy_id: id, user_id: second.id, hour, bytes_down: 1000 }]);
    await runEventsJob();
    expect(await queued(endpoint)).toEqual([]);

    // The new owner's own 80%.
    insertUsageRows(shop.tpb, [{ proxy_id: id, user_id: second.id, hour, bytes_down: 8000 }]);
    await runEventsJob();
    expect((await queued(endpoint)).map((d) => d.body.data)).toEqual([
      { proxy: expect.objectContaining({ id }), level: 80, bytes: 8000, quota_bytes: 10_000 },
    ]);
  });

  it("is superuser-only to run on demand", async () => {
    const user = await customer(shop);
    await expect(user.pb.send("/api/admin/jobs/webhook-events", { method: "POST" })).rejects.toMatchObject({ status: 403 });
    await expect(shop.admin.send("/api/admin/jobs/webhook-events", { method: "POST" })).rejects.toMatchObject({ status: 403 });
  });
});

describe("payment.succeeded", () => {
  it("is queued when the test provider credits a purchase of credits, once", async () => {
    const user = await customer(shop, 250);
    const endpoint = await endpointOf(user, ["payment.succeeded"]);
    const key = randomUUID();
    const { payment, balance_cents } = await checkout(user.pb, "package-25", key);
    await checkout(user.pb, "package-25", key); // a replay
    const [payload] = await deliveredTo(endpoint, 1);
    expect(payload).toMatchObject({
      type: "payment.succeeded",
      data: { payment_id: payment.id, amount_cents: 2400, credits_cents: 2600, balance_cents },
    });
    expect(balance_cents).toBe(250 + 2600);
    expect(await queued(endpoint)).toHaveLength(1);
  });
});
