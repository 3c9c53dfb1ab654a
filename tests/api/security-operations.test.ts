// Security review (issue #13), the operations findings: demo accounts cannot be changed or
// spend while demo mode is on (finding 5), and a proxy's owner, status and term are written
// by the server only, never through the records API (finding 6). The start-up findings
// (the demo-account migration, secrets out of process arguments and request logs, npm
// start's refusals) are in security-startup.test.ts.
import { randomUUID } from "node:crypto";
import type { AdminProxyDetail } from "@/features/console-proxies/api";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSend, setDemoMode as setDemoModeOf } from "../support/admin.ts";
import { DEMO, demoEnv } from "../support/demo.ts";
import { createTestUser, errorOf } from "../support/pocketbase.ts";
import { customer, proxyBuyer, shopClients } from "../support/shop.ts";
import { linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { usePocketBase, useShop } from "../support/use-shop.ts";

const PROXY_FIELDS_MESSAGE = /cannot be set through the records API: change them in the console's Proxy Management/;

describe("finding 6: a proxy's owner, status and term are never written through the records API", () => {
  const shop = useShop();

  /** A proxy a new customer bought (ASSIGNED, theirs, 30 days, auto-renew off). */
  async function ownedProxy(): Promise<{ proxy: PurchaseResult["proxies"][number]; owner: string }> {
    const { user, proxies } = await proxyBuyer(shop, { count: 1, cents: 5000, prefix: "F" });
    return { proxy: proxies[0]!, owner: user.id };
  }

  const stockBody = (tag: string) => ({
    host: `f6-${tag}-${Date.now()}.test`,
    port: 8080,
    username: `u-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    password: "Secret#Stock2026",
    type: "HTTP",
    country: "US",
  });

  it("finding 6: creating a proxy with an owner, a status other than Available, an expiry or auto-renew is refused, superusers included", async () => {
    const { owner } = await ownedProxy();
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const extra of [
        { status: "ASSIGNED", assigned_to_user_id: owner, expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", assigned_to_user_id: owner },
        { status: "MAINTENANCE" },
        { status: "AVAILABLE", expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", auto_renew: true },
        { status: "AVAILABLE", expiry_notice_sent_at: "2099-01-01 00:00:00.000Z" },
      ]) {
        const body = { ...stockBody(who), ...extra };
        const err = await errorOf(() => pb.collection("proxies").create(body));
        expect(err.status, `${who} ${JSON.stringify(extra)}`).toBe(403);
        expect(err.response["message"]).toMatch(/A new proxy starts Available, with no owner, expiry or auto-renewal/);
        const stored = await shop.su.collection("proxies").getList(1, 1, { filter: shop.su.filter("host = {:h}", { h: body.host }) });
        expect(stored.totalItems).toBe(0);
      }
      // Stock is still made through the API.
      const stock = await pb.collection("proxies").create({ ...stockBody(`${who}-ok`), status: "AVAILABLE" });
      expect(stock).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    }
  });

  it("finding 6: an update never changes a proxy's owner, status, expiry, auto-renew or notice, superusers included (403, row unchanged)", async () => {
    const { proxy, owner } = await ownedProxy();
    const other = await customer(shop);
    const before = await shop.su.collection("proxies").getOne(proxy.id);
    expect(before).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: owner });
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const body of [
        { assigned_to_user_id: other.id },
        { assigned_to_user_id: "" },
        { status: "AVAILABLE" },
        { status: "EXPIRED" },
        { expires_at: "2099-01-01 00:00:00.000Z" },
        { auto_renew: true },
        { expiry_notice_sent_at: "2026-01-01 00:00:00.000Z" },
        { city: "Springfield", status: "AVAILABLE", assigned_to_user_id: "", expires_at: "" },
      ]) {
        const err = await errorOf(() => pb.collection("proxies").update(proxy.id, body));
        expect(err.status, `${who} ${JSON.stringify(body)}`).toBe(403);
        expect(err.response["message"]).toMatch(PROXY_FIELDS_MESSAGE);
      }
    }
    expect(await shop.su.collection("proxies").getOne(proxy.id)).toEqual(before);
    // Other fields still change (the password through the records API is sealed and audited).
    const updated = await shop.admin.collection("proxies").update(proxy.id, { city: "Springfield" });
    expect(updated).toMatchObject({ city: "Springfield", status: "ASSIGNED", assigned_to_user_id: owner });
  });

  it("finding 6: the console's audited route releases a customer's proxy with a new password", async () => {
    const { proxy, owner } = await ownedProxy();
    const released = await adminSend<AdminProxyDetail>(shop.admin, `/api/admin/proxies/${proxy.id}`, { status: "AVAILABLE" }, "PATCH");
    expect(released).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    expect(released["password"]).not.toBe(proxy["password"]);
    const audit = await shop.su.collection("audit_logs").getFirstListItem(shop.su.filter("target_id = {:id}", { id: proxy.id }));
    expect(audit).toMatchObject({ action: "proxies.update" });
    expect(audit["details"]).toMatchObject({
      changes: { status: { from: "ASSIGNED", to: "AVAILABLE" }, assigned_to_user_id: { from: owner, to: "" }, password: { changed: true } },
    });
  });
});

const DEMO_ACCOUNT_MESSAGE =
  "Demo mode is on: the demo accounts cannot change their profile, e-mail or password, buy proxies or buy credits. Sign up for an account of your own to do that.";

describe("finding 5: in demo mode the demo accounts cannot be changed and cannot buy", () => {
  const demo = usePocketBase({ mail: true, env: { ...demoEnv(), SHOP_APP_URL: "http://shop.test:4321" }, ledger: false });
  let demoCustomer: PocketBase;
  let demoAdmin: PocketBase;

  const setDemoMode = (on: boolean) => setDemoModeOf(demo.su, on);
  const signInDemo = async (who: { email: string; password: string }) => {
    const pb = demo.tpb.client();
    await pb.collection("users").authWithPassword(who.email, who.password);
    return pb;
  };
  const userRow = (email: string) => demo.su.collection("users").getFirstListItem(demo.su.filter("email = {:email}", { email }));
  const expectDemoRefusal = async (run: () => Promise<unknown>, what: string) => {
    const err = await errorOf(run);
    expect(err.status, what).toBe(403);
    expect(err.response["message"], what).toBe(DEMO_ACCOUNT_MESSAGE);
  };

  beforeAll(async () => {
    await setDemoMode(true);
    demoCustomer = await signInDemo(DEMO.customer);
    demoAdmin = await signInDemo(DEMO.admin);
  });

  it("finding 5: the seed marks both demo accounts (users.is_demo, hidden from them)", async () => {
    expect(await userRow(DEMO.admin.email)).toMatchObject({ is_demo: true, is_admin: true });
    expect(await userRow(DEMO.customer.email)).toMatchObject({ is_demo: true });
    const own = await demoCustomer.collection("users").getOne(demoCustomer.authStore.record!.id);
    expect(own).not.toHaveProperty("is_demo");
  });

  it("finding 5: no records-API change of a demo account's profile, password or e-mail, by itself or by an admin", async () => {
    const customerRow = await userRow(DEMO.customer.email);
    const adminRow = await userRow(DEMO.admin.email);
    for (const [who, pb, id] of [
      ["demo customer", demoCustomer, customerRow.id],
      ["demo admin", demoAdmin, adminRow.id],
    ] as const) {
      for (const body of [
        { first_name: "Mallory" },
        { last_name: "Locked" },
        { country: "Nowhere" },
        { onboarding_completed: false },
        {
          password: "Taken#Over2026",
          passwordConfirm: "Taken#Over2026",
          oldPassword: who === "demo admin" ? DEMO.admin.password : DEMO.customer.password,
        },
      ]) {
        await expectDemoRefusal(() => pb.collection("users").update(id, body), `${who} ${JSON.stringify(body)}`);
      }
      // Refused to every non-superuser already ("Contact support ..."), demo or not.
      expect((await errorOf(() => pb.collection("users").requestEmailChange("taken@over.test"))).status, `${who} e-mail change`).toBe(403);
    }
    // Another admin, or the demo admin, cannot change the demo customer either (the update
    // rule already limits every caller to their own row: 404).
    const otherAdmin = await signInDemo(await createTestUser(demo.su, { is_admin: true }));
    for (const pb of [otherAdmin, demoAdmin]) {
      const err = await errorOf(() =>
        pb
          .collection("users")
          .update(customerRow.id, { first_name: "Mallory", password: "Taken#Over2026", passwordConfirm: "Taken#Over2026" }),
      );
      expect([403, 404]).toContain(err.status);
    }
    expect(await userRow(DEMO.customer.email)).toEqual(customerRow);
    expect(await userRow(DEMO.admin.email)).toEqual(adminRow);
    // The published passwords still sign in.
    await signInDemo(DEMO.customer);
    await signInDemo(DEMO.admin);
  });

  it("finding 5: a password reset link cannot change a demo account's password", async () => {
    const after = Date.now() - 1000;
    await demo.tpb.client().collection("users").requestPasswordReset(DEMO.customer.email);
    const mail = await waitForMail(demo.mailbox.sink, DEMO.customer.email, /password/i, { after });
    const token = new URL(linkFrom(mail, "/reset-password?token=")).searchParams.get("token") ?? "";
    await expectDemoRefusal(
      () => demo.tpb.client().collection("users").confirmPasswordReset(token, "Taken#Over2026", "Taken#Over2026"),
      "reset",
    );
    await signInDemo(DEMO.customer);
    expect((await errorOf(() => signInDemo({ email: DEMO.customer.email, password: "Taken#Over2026" }))).status).toBe(400);
  });

  it("finding 5: the demo customer cannot buy, renew, regenerate, toggle auto-renew or buy credits; reads and support work", async () => {
    const me = demoCustomer.authStore.record!.id;
    const proxies = await demoCustomer.collection("proxies").getFullList();
    expect(proxies.length).toBeGreaterThan(0);
    const proxy = proxies[0]!;
    const balanceBefore = (await demo.su.collection("balances").getFirstListItem(demo.su.filter("user_id = {:me}", { me })))[
      "balance_cents"
    ];
    const ordersBefore = (await demo.su.collection("proxy_orders").getList(1, 1, { filter: demo.su.filter("user_id = {:me}", { me }) }))
      .totalItems;
    const key = () => ({ "Idempotency-Key": randomUUID() });
    const calls: [string, string, unknown][] = [
      ["POST", "/api/v1/proxies/purchase", { type: "RESIDENTIAL", country: "US", quantity: 1 }],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [proxy.id] }],
      ["PATCH", `/api/v1/proxies/${proxy.id}`, { auto_renew: !proxy["auto_renew"] }],
      ["POST", `/api/v1/proxies/${proxy.id}/rotate`, {}],
      ["POST", "/api/v1/credits/checkout", { package_id: "package-10" }],
    ];
    for (const [method, url, body] of calls) {
      await expectDemoRefusal(
        () => demoCustomer.send(url, { method, body: body as Record<string, unknown>, headers: key() }),
        `${method} ${url}`,
      );
    }
    expect(await demoCustomer.collection("proxies").getOne(proxy.id)).toEqual(proxy);
    expect((await demo.su.collection("balances").getFirstListItem(demo.su.filter("user_id = {:me}", { me })))["balance_cents"]).toBe(
      balanceBefore,
    );
    expect((await demo.su.collection("proxy_orders").getList(1, 1, { filter: demo.su.filter("user_id = {:me}", { me }) })).totalItems).toBe(
      ordersBefore,
    );
    expect(
      (await demo.su.collection("payments").getList(1, 50, { filter: demo.su.filter("user_id = {:me}", { me }) })).items.every(
        (p) => p["status"] !== "pending",
      ),
    ).toBe(true);

    // Reading works, and so does support.
    expect(await demoCustomer.send("/api/v1/proxies/prices", { method: "GET" })).toHaveProperty("RESIDENTIAL");
    const ticket = await demoCustomer.collection("support_tickets").create({ user_id: me, subject: "Demo question", priority: "low" });
    expect(ticket).toMatchObject({ subject: "Demo question" });
    // The demo admin cannot buy either.
    await expectDemoRefusal(
      () => demoAdmin.send("/api/v1/credits/checkout", { method: "POST", body: { package_id: "package-10" }, headers: key() }),
      "demo admin checkout",
    );
  });

  it("finding 5: other accounts are unaffected, a superuser may still change a demo account, and demo mode off lifts the lock", async () => {
    const someone = await customer(await shopClients(demo.tpb), 0);
    expect(await someone.pb.collection("users").update(someone.id, { first_name: "Robin" })).toMatchObject({ first_name: "Robin" });

    const row = await userRow(DEMO.customer.email);
    expect(await demo.su.collection("users").update(row.id, { last_name: "Customer" })).toMatchObject({ last_name: "Customer" });

    await setDemoMode(false);
    try {
      expect(await demoCustomer.collection("users").update(row.id, { first_name: "Casey" })).toMatchObject({ first_name: "Casey" });
    } finally {
      await setDemoMode(true);
    }
  });
});
