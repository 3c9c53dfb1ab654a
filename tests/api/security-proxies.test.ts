// Security review (issue #13), the proxy findings: an Idempotency-Key replay shows only what
// that request was sold and still belongs to the caller (finding 1), a price read racing a
// plan change never keeps the old price (finding 7), and auto-renewal renews what the
// balance covers, oldest expiry first, instead of all or nothing (finding 8).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { RecordModel } from "pocketbase";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import { beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/pocketbase.ts";
import { addStock, credit, customer, DAY, iso, ledgerOf, post, purchase, runExpiryJob as runExpiryJobOf } from "../support/shop.ts";
import { setProxyColumns } from "../support/proxy-columns.ts";
import { waitForMail } from "../support/smtp-sink.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop({ mail: true });
const runExpiryJob = () => runExpiryJobOf(shop);

const proxyNow = (id: string) => shop.su.collection("proxies").getOne(id);

describe("finding 1: an Idempotency-Key replay never shows another buyer's proxy", () => {
  it("a purchase replayed after its proxy was refunded and sold again shows no host, password or owner of the new buyer", async () => {
    const country = `S${randomUUID().slice(0, 6)}`;
    const [proxyId] = await addStock(shop, { country, count: 1 });
    const first = await customer(shop, 5000);
    const key = randomUUID();
    const body = { type: "RESIDENTIAL", country, quantity: 1 };
    const bought = await purchase(first.pb, body, key);
    expect(bought.proxies.map((p) => p.id)).toEqual([proxyId]);

    // The admin refunds the order: the proxy goes back to stock with a new password.
    await post(shop.admin, `/api/admin/orders/${bought.order.id}/refund`, { reason: "Did not work for me" });
    const second = await customer(shop, 5000);
    const resold = await purchase(second.pb, body);
    expect(resold.proxies.map((p) => p.id)).toEqual([proxyId]);
    const secret = String(resold.proxies[0]!["password"]);

    const replay = await first.pb.send<PurchaseResult>("/api/v1/proxies/purchase", {
      method: "POST",
      body,
      headers: { "Idempotency-Key": key },
    });
    expect(replay.order.id).toBe(bought.order.id);
    expect(replay.proxies).toEqual([]);
    const text = JSON.stringify(replay);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(second.id);
    expect(text).not.toContain(String(resold.proxies[0]!["username"]) + '"');
  });

  it("a renewal replayed after the proxy went back to stock through expiry shows nothing of its new owner", async () => {
    const country = `S${randomUUID().slice(0, 6)}`;
    const [proxyId] = await addStock(shop, { country, count: 1 });
    const first = await customer(shop, 5000);
    await purchase(first.pb, { type: "RESIDENTIAL", country, quantity: 1 });
    const key = randomUUID();
    const renewed = await post(first.pb, "/api/v1/proxies/renew", { proxy_ids: [proxyId] }, key);
    expect(renewed.proxies).toHaveLength(1);

    // Expired for more than the 7 days of grace: the job puts it back in stock; someone else buys it.
    setProxyColumns(shop.tpb, [proxyId!], { status: "EXPIRED", expires_at: iso(Date.now() - 8 * DAY) });
    await runExpiryJob();
    const second = await customer(shop, 5000);
    const resold = await purchase(second.pb, { type: "RESIDENTIAL", country, quantity: 1 });

    const replay = await post(first.pb, "/api/v1/proxies/renew", { proxy_ids: [proxyId] }, key);
    expect(replay.order.id).toBe(renewed.order.id);
    expect(replay.proxies).toEqual([]);
    expect(JSON.stringify(replay)).not.toContain(String(resold.proxies[0]!["password"]));
    expect(JSON.stringify(replay)).not.toContain(second.id);
  });

  it("a replay still shows the caller's own proxies, with their current credentials", async () => {
    const country = `S${randomUUID().slice(0, 6)}`;
    await addStock(shop, { country, count: 2 });
    const buyer = await customer(shop, 5000);
    const key = randomUUID();
    const body = { type: "RESIDENTIAL", country, quantity: 2 };
    const bought = await purchase(buyer.pb, body, key);
    const regenerated = await buyer.pb.send<RecordModel>(`/api/v1/proxies/${bought.proxies[0]!.id}/rotate`, {
      method: "POST",
    });

    const replay = await purchase(buyer.pb, body, key);
    expect(replay.proxies.map((p) => p.id)).toEqual(bought.proxies.map((p) => p.id));
    expect(replay.proxies[0]!["password"]).toBe(regenerated["password"]);
    expect(replay.proxies[1]!["password"]).toBe(bought.proxies[1]!["password"]);
  });
});

describe("finding 7: a price read racing a plan change never keeps the old price", () => {
  // The race: a price read queries the plans, a plan change commits and clears the cached
  // list, then the read stores what it read, and the old price stays until the next change.
  // A shop of its own with many (more expensive) active plans makes the read slow enough to
  // straddle the change every time.
  const slowShop = useShop({ ledger: false });
  beforeAll(() => {
    execFileSync("python3", [
      "-c",
      `import sqlite3,sys
c=sqlite3.connect(sys.argv[1], timeout=10)
c.executemany("INSERT INTO pricing_plans (id, name, type, price_cents, features, popular, active, created, updated) VALUES (?, 'Bulk', 'HTTPS', 999999, ?, 0, 1, '', '')", ((f"bulk{i:010d}", '["x"]') for i in range(600000)))
c.commit()`,
      path.join(slowShop.tpb.dataDir, "data.db"),
    ]);
  });

  it("a plan change committed while a price read is under way is answered by the next read and charged by the next purchase", async () => {
    for (const plan of await slowShop.su.collection("pricing_plans").getFullList({ filter: 'type = "HTTP"' })) {
      await slowShop.su.collection("pricing_plans").update(plan.id, { active: false });
    }
    const plan = await slowShop.admin
      .collection("pricing_plans")
      .create({ name: "Race HTTP", type: "HTTP", price_cents: 100, features: ["x"], active: true });
    const reader = await customer(slowShop, 0);
    const prices = () => reader.pb.send<Record<string, number>>("/api/v1/proxies/prices", {});

    let readDoneAt = 0;
    const racing = prices().then((answer) => ((readDoneAt = Date.now()), answer));
    await new Promise((r) => setTimeout(r, 30));
    await slowShop.admin.collection("pricing_plans").update(plan.id, { price_cents: 120 });
    const changedAt = Date.now();
    expect([100, 120]).toContain((await racing)["HTTP"]);
    // The setup holds: the read was still under way when the change had committed.
    expect(readDoneAt).toBeGreaterThan(changedAt);

    expect((await prices())["HTTP"]).toBe(120);
    const country = `S${randomUUID().slice(0, 6)}`;
    await addStock(slowShop, { type: "HTTP", country, count: 1 });
    const buyer = await customer(slowShop, 1000);
    expect((await purchase(buyer.pb, { type: "HTTP", country, quantity: 1 })).order["total_cents"]).toBe(120);
  });
});

describe("finding 8: auto-renewal renews what the balance covers, oldest expiry first", () => {
  /** A customer with `count` auto-renewing RESIDENTIAL proxies (450 each) due now, oldest first. */
  async function dueOwner(count: number, balanceAfterPurchase: number) {
    const country = `S${randomUUID().slice(0, 6)}`;
    await addStock(shop, { country, count });
    const user = await customer(shop, count * 450 + balanceAfterPurchase);
    const res = await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: count });
    const ids = res.proxies.map((p) => p.id);
    // Due 3, 2 and 1 minutes ago, in the order of `ids`, with auto-renew on.
    ids.forEach((id, i) => setProxyColumns(shop.tpb, [id], { auto_renew: 1, expires_at: iso(Date.now() - (count - i) * 60_000) }));
    return { user, ids };
  }

  it("renews the two oldest of three due proxies the balance covers and expires the third, with a mail that names it", async () => {
    const { user, ids } = await dueOwner(3, 2 * 450 + 100);
    const after = Date.now() - 1000;
    await runExpiryJob();

    expect((await proxyNow(ids[0]!))["status"]).toBe("ASSIGNED");
    expect((await proxyNow(ids[1]!))["status"]).toBe("ASSIGNED");
    expect(Date.parse(String((await proxyNow(ids[0]!))["expires_at"]).replace(" ", "T"))).toBeGreaterThan(Date.now() + 29 * DAY);
    const third = await proxyNow(ids[2]!);
    expect(third["status"]).toBe("EXPIRED");

    const { balance, rows } = await ledgerOf(shop, user.id);
    expect(balance).toBe(100);
    expect(rows.filter((r) => String(r["description"]).startsWith("Automatic renewal of 2 proxies"))).toHaveLength(1);
    const mail = await waitForMail(shop.mailbox.sink, user.email, /automatic renewal failed for 1 proxy/i, { after });
    expect(mail.text).toContain(`${third["host"]}:${third["port"]}`);
    expect(mail.text).toContain("Insufficient balance");
    expect(mail.text).not.toContain(`:${(await proxyNow(ids[0]!))["port"]} `);
  });

  it("leaves welcome credit that may not be spent before a first payment out of the renewal budget", async () => {
    const setting = await shop.su.collection("settings").getFirstListItem('key = "welcome_credit_spendable_cents"');
    await shop.su.collection("settings").update(setting.id, { value: "0" });
    try {
      const email = `welcome-renew-${randomUUID()}@api.test`;
      const signup = await shop.tpb.client().send<{ record: RecordModel }>("/api/shop/signup", {
        method: "POST",
        body: { first_name: "Wanda", last_name: "Welcome", email, country: "Chile" },
      });
      await shop.su.collection("users").update(signup.record.id, { verified: true }); // the $5.00 welcome credit
      const password = `Welcome#${randomUUID()}`;
      await shop.su.collection("users").update(signup.record.id, { password, passwordConfirm: password });
      const user = { id: signup.record.id, email, pb: await signIn(shop.tpb, { email, password }) };
      await credit(shop, user.id, 2 * 450);
      const country = `S${randomUUID().slice(0, 6)}`;
      await addStock(shop, { country, count: 2 });
      const ids = (await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 2 })).proxies.map((p) => p.id);
      setProxyColumns(shop.tpb, [ids[0]!], { auto_renew: 1, expires_at: iso(Date.now() - 120_000) });
      setProxyColumns(shop.tpb, [ids[1]!], { auto_renew: 1, expires_at: iso(Date.now() - 60_000) });
      await credit(shop, user.id, 450); // balance 950, of which 500 is welcome credit: 450 to spend
      const after = Date.now() - 1000;

      await runExpiryJob();

      expect((await proxyNow(ids[0]!))["status"]).toBe("ASSIGNED");
      expect((await proxyNow(ids[1]!))["status"]).toBe("EXPIRED");
      expect((await ledgerOf(shop, user.id)).balance).toBe(500);
      const mail = await waitForMail(shop.mailbox.sink, email, /automatic renewal failed for 1 proxy/i, { after });
      expect(mail.text).toContain("$5.00 of welcome credit can be spent only after your first credit purchase");
    } finally {
      await shop.su.collection("settings").update(setting.id, { value: "10000" });
    }
  });

  it("renews the proxies whose type is still sold when another due type is no longer for sale", async () => {
    const country = `S${randomUUID().slice(0, 6)}`;
    await addStock(shop, { country, count: 1 });
    await addStock(shop, { type: "SOCKS5", country, count: 1 });
    const user = await customer(shop, 10_000);
    const residential = (await purchase(user.pb, { type: "RESIDENTIAL", country, quantity: 1 })).proxies[0]!.id;
    const socks = (await purchase(user.pb, { type: "SOCKS5", country, quantity: 1 })).proxies[0]!.id;
    setProxyColumns(shop.tpb, [residential, socks], { auto_renew: 1, expires_at: iso(Date.now() - 60_000) });

    // SOCKS5 has no built-in price: with its plans off it is not for sale.
    const plans = await shop.su.collection("pricing_plans").getFullList({ filter: 'type = "SOCKS5" && active = true' });
    for (const plan of plans) await shop.su.collection("pricing_plans").update(plan.id, { active: false });
    const after = Date.now() - 1000;
    try {
      await runExpiryJob();
    } finally {
      for (const plan of plans) await shop.su.collection("pricing_plans").update(plan.id, { active: true });
    }
    expect((await proxyNow(residential))["status"]).toBe("ASSIGNED");
    expect((await proxyNow(socks))["status"]).toBe("EXPIRED");
    const mail = await waitForMail(shop.mailbox.sink, user.email, /automatic renewal failed for 1 proxy/i, { after });
    expect(mail.text).toContain("not for sale");
  });
});
