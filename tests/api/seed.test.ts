// The embedded default: default settings and plans always; demo accounts, history and
// inventory only with SHOP_DEMO_SEED=true.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unknownPlaceholders } from "@/lib/plan-features";
import { demoEnv, type DemoAccounts } from "../support/demo.ts";
import { startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";

const DEMO: DemoAccounts = {
  admin: { email: "demo-admin@test.local", password: "DemoAdmin#Test1" },
  customer: { email: "demo-customer@test.local", password: "DemoCustomer#Test1" },
};

const SETTING_KEYS = [
  "site_name",
  "site_description",
  "primary_color",
  "logo_url",
  "contact_email",
  "contact_phone",
  "contact_address",
  "support_hours",
  "default_support_name",
  "admin_registration_enabled",
  "demo_mode",
  "welcome_credit_cents",
  // The welcome credit's guards (security review #13, finding 10).
  "welcome_credits_per_address_per_day",
  "welcome_credit_spendable_cents",
  // The name customers connect to the gateway by (issue #16; its bind addresses and allowed
  // ranges are admin-only, like staff_notification_email).
  "gateway_public_host",
];

async function expectDefaultContent(tpb: TestPocketBase): Promise<void> {
  const anon = tpb.client();
  const settings = await anon.collection("settings").getFullList({ fields: "key,value" });
  expect(settings.map((s) => s["key"]).sort()).toEqual([...SETTING_KEYS].sort());
  const byKey = Object.fromEntries(settings.map((s) => [s["key"], s["value"]]));
  expect(byKey).toMatchObject({
    site_name: "ProxyShop",
    primary_color: "#3B82F6",
    logo_url: "",
    default_support_name: "Support Team",
    admin_registration_enabled: "false",
    demo_mode: "false",
  });
  const plans = await anon.collection("pricing_plans").getFullList({ filter: "active = true", sort: "price_cents" });
  expect(plans.length).toBeGreaterThanOrEqual(3);
  expect(plans.filter((p) => p["popular"])).toHaveLength(1);
  for (const plan of plans) {
    expect(Number.isInteger(plan["price_cents"]) && (plan["price_cents"] as number) > 0).toBe(true);
    expect((plan["features"] as string[]).length).toBeGreaterThan(0);
    // Support hours are one setting (issue #15): no plan promises other hours.
    expect((plan["features"] as string[]).join(" | ")).not.toContain("24/7");
    // Numbers name their facts (issue #28): only the contract's placeholders.
    expect((plan["features"] as string[]).flatMap(unknownPlaceholders)).toEqual([]);
  }
  const residential = plans.find((p) => p["type"] === "RESIDENTIAL");
  expect(residential?.["features"]).toContain("Sticky sessions up to {session_max_hours} hours");
}

describe("with SHOP_DEMO_SEED=true", () => {
  let tpb: TestPocketBase;
  let su: PocketBase;

  beforeAll(async () => {
    tpb = await startTestPocketBase({ ...demoEnv(DEMO), SHOP_APP_URL: "https://shop.test.example/" });
    su = await tpb.superuser();
  });

  afterAll(async () => {
    await tpb?.stop();
  });

  it("has the default settings and plans", () => expectDefaultContent(tpb));

  it("configures the app URL from SHOP_APP_URL, the trusted proxy header and the rate limiter", async () => {
    const settings = await su.settings.getAll();
    expect(settings["meta"]).toMatchObject({ appName: "ProxyShop", appURL: "https://shop.test.example" });
    expect(settings["trustedProxy"]).toMatchObject({ headers: ["X-Forwarded-For"] });
    expect(settings["rateLimits"]).toMatchObject({ enabled: true, excludedIPs: [] });
    // The test harness sets SHOP_RATE_LIMIT_SCALE=100: the defaults, each limit x100.
    const rules = settings["rateLimits"]["rules"] as { label: string; maxRequests: number; duration: number }[];
    expect(rules.find((r) => r.label === "*:auth")).toMatchObject({ maxRequests: 1000, duration: 60 });
    expect(rules.find((r) => r.label === "/api/")).toMatchObject({ maxRequests: 30_000, duration: 10 });
  });

  it("lets the demo admin sign in as an admin with onboarding done", async () => {
    const auth = await tpb.client().collection("users").authWithPassword(DEMO.admin.email, DEMO.admin.password);
    expect(auth.record).toMatchObject({ is_admin: true, onboarding_completed: true, verified: true });
  });

  it("gives the demo customer a balance that equals the sum of their ledger", async () => {
    const pb = tpb.client();
    const { record } = await pb.collection("users").authWithPassword(DEMO.customer.email, DEMO.customer.password);
    expect(record).toMatchObject({ is_admin: false, onboarding_completed: true });
    const balance = await pb.collection("balances").getFirstListItem(`user_id = "${record.id}"`);
    const transactions = await pb.collection("transactions").getFullList({ sort: "created" });
    expect(transactions.length).toBeGreaterThanOrEqual(3);
    const sum = transactions.reduce((s, t) => s + (t["amount_cents"] as number), 0);
    expect(balance["balance_cents"]).toBe(sum);
    expect(sum).toBeGreaterThan(0);
    expect(transactions.at(-1)!["balance_after_cents"]).toBe(sum);
    expect(new Set(transactions.map((t) => t["type"]))).toEqual(new Set(["CREDIT", "PROXY_PURCHASE"]));

    const proxies = await pb.collection("proxies").getFullList();
    expect(proxies.length).toBeGreaterThan(0);
    for (const proxy of proxies) {
      expect(proxy).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: record.id });
      expect(Date.parse((proxy["expires_at"] as string).replace(" ", "T"))).toBeGreaterThan(Date.now());
      // Reached through the shop's gateway (issue #16): SHOP_APP_URL's host, the HTTP port
      // (3128 when GATEWAY_HTTP_PORT is unset), both ports for these types; never the exit.
      expect(proxy).toMatchObject({ host: "shop.test.example", port: 3128, ports: { http: 3128, socks5: 1080 } });
      expect(proxy).not.toHaveProperty("exit");
    }

    const tickets = await pb.collection("support_tickets").getFullList();
    expect(tickets.filter((t) => t["status"] === "open").length).toBeGreaterThanOrEqual(1);
    const messages = await pb.collection("chat_messages").getFullList({ filter: `ticket_id = "${tickets[0]!.id}"`, sort: "created" });
    expect(messages.map((m) => m["is_admin_message"])).toEqual([false, true]);
  });

  it("has AVAILABLE residential and datacenter inventory in all five purchase countries", async () => {
    for (const country of ["US", "CA", "GB", "DE", "FR"]) {
      for (const type of ["RESIDENTIAL", "DATACENTER"]) {
        const available = await su
          .collection("proxies")
          .getList(1, 1, { filter: `status = "AVAILABLE" && country = "${country}" && type = "${type}"` });
        expect(available.totalItems, `${type} in ${country}`).toBeGreaterThan(0);
      }
    }
    const states = await su.collection("proxies").getFullList({ filter: 'country = "FR"', fields: "state" });
    expect(new Set(states.map((s) => s["state"]))).toEqual(new Set(["Île-de-France", "Provence"]));
  });

  it("seeds gateway proxies that exit directly from this machine, in ISO countries", async () => {
    // Every demo proxy, sold or not, is what Generate makes: exit direct, no bind address,
    // the gateway's host and port, no upstream (the superuser sees the hidden fields).
    const all = await su.collection("proxies").getFullList({ fields: "country,host,port,exit,bind_address,upstream_host,type,username" });
    expect(all).toHaveLength(200);
    for (const proxy of all) {
      expect(proxy).toMatchObject({ host: "shop.test.example", port: 3128, exit: "direct", bind_address: "", upstream_host: "" });
      // Named as Generate names stock (issue #28), not "psdemo_...": type, country, 12 random characters.
      const prefix = `${String(proxy["type"]).slice(0, 3).toLowerCase()}_${String(proxy["country"]).toLowerCase()}_`;
      expect(proxy["username"]).toMatch(new RegExp(`^${prefix}[a-z0-9]{12}$`));
    }
    expect(all.filter((p) => p["country"] === "UK")).toHaveLength(0);

    // Customers see the United Kingdom as GB, by name.
    const pb = tpb.client();
    await pb.collection("users").authWithPassword(DEMO.customer.email, DEMO.customer.password);
    const stock = await pb.send<{ locations: { country: string; country_name: string; state: string }[] }>("/api/v1/proxies/stock", {
      query: { type: "DATACENTER" },
    });
    const countries = new Set(stock.locations.map((l) => `${l.country} ${l.country_name}`));
    expect(countries).toContain("GB United Kingdom");
    expect([...countries].filter((c) => c.startsWith("UK"))).toEqual([]);
    expect(new Set(stock.locations.filter((l) => l.country === "GB").map((l) => l.state))).toEqual(new Set(["England", "Scotland"]));
  });
});

describe("with the demo seed off", () => {
  let tpb: TestPocketBase;

  beforeAll(async () => {
    tpb = await startTestPocketBase({ SHOP_DEMO_SEED: "false" });
  });

  afterAll(async () => {
    await tpb?.stop();
  });

  it("has no users and no inventory, but the default settings and plans", async () => {
    const su = await tpb.superuser();
    expect((await su.collection("users").getList(1, 1)).totalItems).toBe(0);
    expect((await su.collection("proxies").getList(1, 1)).totalItems).toBe(0);
    await expectDefaultContent(tpb);
  });
});
