// The console's Proxy Management routes (/api/admin/proxies...) against a real PocketBase:
// who may call them, the list's filters and paging, the stats, edit and delete rules,
// generate and import with their reports, one audit row per change, and demo mode.
import { beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminSend, setDemoMode } from "../support/admin.ts";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, purchase, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { proxyConsole } from "./cases/console-proxies-kit.ts";
import { proxyImportEditCases } from "./cases/proxy-import-edit.ts";

const shop = useShop({ ledger: false });
let buyer: Customer;

beforeAll(async () => {
  buyer = await customer(shop, 100_000);
});

const { sentence, tag, list, stats, detail, importText, edit, audits, auditCount, proxyCount, stock } = proxyConsole(shop);

describe("who may call the proxy routes", () => {
  it("refuses anonymous callers (401) and customers (403), changing nothing", async () => {
    const [proxy] = await stock([`who-${tag()}.test:8080:user:pass1`]);
    const anonymous = shop.tpb.client();
    const routes: [string, string, unknown][] = [
      ["GET", "/api/admin/proxies", undefined],
      ["GET", "/api/admin/proxies/stats", undefined],
      ["GET", "/api/admin/proxies/locations", undefined],
      ["GET", `/api/admin/proxies/${proxy!.id}`, undefined],
      ["PATCH", `/api/admin/proxies/${proxy!.id}`, { host: "changed.test", status: "MAINTENANCE" }],
      ["DELETE", `/api/admin/proxies/${proxy!.id}`, undefined],
      ["POST", "/api/admin/proxies/generate", { type: "HTTP", country: "US", quantity: 5 }],
      ["POST", "/api/admin/proxies/import", { text: `refused-${tag()}.test:1:u:p` }],
    ];
    const before = { proxies: await proxyCount(), audits: await auditCount() };
    for (const [method, path, body] of routes) {
      const options = { method, ...(body ? { body: body as Record<string, unknown> } : {}) };
      expect(await statusOf(() => anonymous.send(path, options)), `${method} ${path} anonymous`).toBe(401);
      expect(await statusOf(() => buyer.pb.send(path, options)), `${method} ${path} customer`).toBe(403);
    }
    expect(await proxyCount()).toBe(before.proxies);
    // The only new audit rows: the customer's refusals, one per route (anonymous calls are not logged).
    expect(await auditCount()).toBe(before.audits + routes.length);
    expect(await detail(proxy!.id)).toMatchObject({ host: proxy!.host, status: "AVAILABLE" });
  });

  it("refuses every change in demo mode (403, nothing changed) and still answers reads", async () => {
    const [proxy] = await stock([`demo-${tag()}.test:8080:user:pass1`]);
    await setDemoMode(shop.su, true);
    try {
      const before = { proxies: await proxyCount(), audits: await auditCount() };
      const changes = [
        () => edit(proxy!.id, { status: "MAINTENANCE" }),
        () => adminSend(shop.admin, `/api/admin/proxies/${proxy!.id}`, {}, "DELETE"),
        () => adminSend(shop.admin, "/api/admin/proxies/generate", { type: "HTTP", country: "US", quantity: 5 }),
        () => importText({ text: `demo-${tag()}.test:1:u:p` }),
      ];
      for (const change of changes) {
        const err = await errorOf(change);
        expect(err.status).toBe(403);
        expect(err.message).toBe("Demo mode is on: the console is read-only and changes are not saved.");
      }
      expect(await proxyCount()).toBe(before.proxies);
      expect(await auditCount()).toBe(before.audits);
      expect((await detail(proxy!.id)).status).toBe("AVAILABLE");
      expect((await list({ search: proxy!.upstream_host })).totalItems).toBe(1);
      expect((await stats()).total).toBe(before.proxies);
    } finally {
      await setDemoMode(shop.su, false);
    }
  });
});

describe("GET /api/admin/proxies and /stats", () => {
  it("lists newest first without passwords, filters by search, type, country and status, and pages", async () => {
    const t = tag();
    await stock([`${t}-a.test:1001:alpha:pw1`, `${t}-a.test:1002:beta:pw2`], {
      type: "SOCKS5",
      country: "JP",
      state: "Hokkaido",
      city: "Hakodate",
    });
    await stock([`${t}-b.test:2001:gamma:pw3`], { type: "HTTP", country: "BR" });

    const all = await list({ search: t });
    expect(all.totalItems).toBe(3);
    // Newest first: the later batch leads (one batch shares its creation time).
    expect(all.items[0]!.upstream_username).toBe("gamma");
    expect(all.items.map((p) => p.created)).toEqual(
      all.items
        .map((p) => p.created)
        .sort()
        .reverse(),
    );
    for (const item of all.items) {
      expect(item).not.toHaveProperty("password");
      expect(item).not.toHaveProperty("password_encrypted");
    }
    expect(all.items.find((p) => p.upstream_username === "alpha")).toMatchObject({
      exit: "upstream",
      upstream_host: `${t}-a.test`,
      upstream_port: 1001,
      upstream_has_password: true,
      type: "SOCKS5",
      country: "JP",
      state: "Hokkaido",
      city: "Hakodate",
      status: "AVAILABLE",
      owner_email: "",
    });

    expect((await list({ search: t, type: "SOCKS5" })).totalItems).toBe(2);
    expect((await list({ search: t, country: "BR" })).items.map((p) => p.upstream_username)).toEqual(["gamma"]);
    expect((await list({ search: "hakodate" })).totalItems).toBeGreaterThanOrEqual(2);
    const none = await list({ search: t, status: "ASSIGNED" });
    expect(none.totalItems).toBe(0);
    expect(none.items).toEqual([]);

    const page2 = await list({ search: t, perPage: 2, page: 2 });
    expect(page2).toMatchObject({ page: 2, perPage: 2, totalItems: 3, totalPages: 2 });
    expect(page2.items).toHaveLength(1);
    // A search for a literal "%" matches nothing rather than everything.
    expect((await list({ search: `${t}%` })).totalItems).toBe(0);

    // The owner's e-mail is shown and searchable once a customer buys one.
    const order = await purchase(buyer.pb, { type: "SOCKS5", country: "JP", state: "Hokkaido", city: "Hakodate", quantity: 1 });
    const bought = order.proxies[0]!;
    const byOwner = await list({ search: buyer.email });
    expect(byOwner.items.map((p) => p.id)).toContain(bought.id);
    expect(byOwner.items.find((p) => p.id === bought.id)).toMatchObject({
      status: "ASSIGNED",
      assigned_to_user_id: buyer.id,
      owner_email: buyer.email,
    });

    await expect(list({ type: "CARRIER_PIGEON" })).rejects.toMatchObject({ status: 400, response: { data: { type: {} } } });
    await expect(list({ status: "LOST" })).rejects.toMatchObject({ status: 400 });
  });

  it("counts by status, type and country, matching the list", async () => {
    const s = await stats();
    expect(s.total).toBe((await list()).totalItems);
    expect(s.available).toBe((await list({ status: "AVAILABLE" })).totalItems);
    expect(s.assigned).toBe((await list({ status: "ASSIGNED" })).totalItems);
    expect(s.expired).toBe((await list({ status: "EXPIRED" })).totalItems);
    expect(s.maintenance).toBe((await list({ status: "MAINTENANCE" })).totalItems);
    expect(s.available + s.assigned + s.expired + s.maintenance).toBe(s.total);
    expect(Object.keys(s.by_type).sort()).toEqual(["DATACENTER", "HTTP", "HTTPS", "RESIDENTIAL", "SOCKS5"]);
    expect(Object.values(s.by_type).reduce((a, b) => a + b, 0)).toBe(s.total);
    expect(s.by_country["JP"]).toBe((await list({ country: "JP" })).totalItems);
    expect(Object.values(s.by_country).reduce((a, b) => a + b, 0)).toBe(s.total);
  });

  it("answers one proxy with its customer's plaintext password (never the upstream's), and 404 for an unknown id", async () => {
    const [proxy] = await stock([`one-${tag()}.test:3128:solo:S3cret-One`]);
    const one = await detail(proxy!.id);
    expect(one).toMatchObject({ id: proxy!.id, username: proxy!.username, upstream_username: "solo", upstream_port: 3128 });
    expect(one.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(JSON.stringify(one)).not.toContain("S3cret-One");
    expect(await statusOf(() => detail("nosuchproxy1234"))).toBe(404);
  });

  it("answers the reference list of places", async () => {
    const places = await adminGet<Record<string, { name: string; states: Record<string, string[]> }>>(
      shop.admin,
      "/api/admin/proxies/locations",
    );
    // Every ISO country; the built-in eight with their states and cities.
    expect(Object.keys(places)).toEqual(expect.arrayContaining(["US", "CA", "GB", "DE", "FR", "AU", "JP", "BR", "NO", "KE"]));
    for (const code of ["US", "CA", "GB", "DE", "FR", "AU", "JP", "BR"]) {
      const country = places[code]!;
      expect(Object.keys(country.states).length).toBeGreaterThanOrEqual(4);
      for (const cities of Object.values(country.states)) expect(cities.length).toBeGreaterThan(0);
    }
    expect(places["US"]!.states["California"]).toContain("Los Angeles");
  });
});

describe("POST /api/admin/proxies/generate", () => {
  it("generates 1,000 available proxies with random, unique credentials in one audited batch", async () => {
    const before = await stats();
    const started = performance.now();
    const res = await adminSend<{ generated_count: number; message: string; ids: string[] }>(shop.admin, "/api/admin/proxies/generate", {
      type: "residential",
      country: "DE",
      state: "Bavaria",
      city: "Munich",
      quantity: 1000,
    });
    const ms = performance.now() - started;
    console.log(`generate 1000: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000); // goal < 1 s on an idle machine
    expect(res).toMatchObject({ generated_count: 1000, message: "Successfully generated 1000 proxies" });
    expect(new Set(res.ids).size).toBe(1000);

    const after = await stats();
    expect(after.total).toBe(before.total + 1000);
    expect(after.available).toBe(before.available + 1000);
    expect(after.by_type["RESIDENTIAL"]).toBe((before.by_type["RESIDENTIAL"] ?? 0) + 1000);

    const made = await list({ search: "res_de_", country: "DE", type: "RESIDENTIAL", perPage: 100 });
    expect(made.totalItems).toBeGreaterThanOrEqual(1000);
    for (const p of made.items) {
      expect(p).toMatchObject({ status: "AVAILABLE", state: "Bavaria", city: "Munich", owner_email: "", exit: "direct" });
    }

    const passwords = await Promise.all(res.ids.slice(0, 10).map(async (id) => (await detail(id)).password));
    for (const pw of passwords) expect(pw).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(passwords).size).toBe(10);
    const usernames = made.items.map((p) => p.username);
    expect(new Set(usernames).size).toBe(usernames.length);
    for (const u of usernames) expect(u).toMatch(/^res_de_[a-z0-9]{12}$/);

    const rows = (await audits("proxies.generate")).filter((r) => (r["details"] as { count: number }).count === 1000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      target_type: "proxies",
      details: { count: 1000, type: "RESIDENTIAL", country: "DE", state: "Bavaria", city: "Munich" },
    });

    // A customer can buy them right away.
    const order = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "DE", state: "Bavaria", city: "Munich", quantity: 2 });
    expect(order.proxies).toHaveLength(2);
    expect(order.proxies[0]!["password"]).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it.each([
    [{ type: "HTTP", country: "US", quantity: 1001 }, "quantity", "Maximum 1000 proxies per batch"],
    [{ type: "HTTP", country: "US", quantity: 0 }, "quantity", "Quantity must be at least 1"],
    [{ type: "HTTP", country: "US", quantity: 2.5 }, "quantity", "Quantity must be a whole number"],
    [{ type: "HTTP", country: "", quantity: 5 }, "country", "Country is required"],
    [
      { type: "HTTP", country: "XX", quantity: 5 },
      "country",
      "XX is not a country code: use an ISO 3166-1 two-letter code such as US, GB or DE",
    ],
    [{ type: "HTTP", country: "US", state: "Bavaria", quantity: 5 }, "state", "Bavaria is not a state of United States in the list"],
    [{ type: "HTTP", country: "US", state: "Texas", city: "Paris", quantity: 5 }, "city", "Paris is not a city of Texas in the list"],
    [{ type: "HTTP", country: "US", city: "Dallas", quantity: 5 }, "state", "Choose a state before a city"],
    [{ type: "FTP", country: "US", quantity: 5 }, "type", "Proxy type must be one of RESIDENTIAL, DATACENTER, SOCKS5, HTTP, HTTPS"],
  ])("refuses %j with a message on %s, changing nothing", async (body, field, message) => {
    const before = { proxies: await proxyCount(), audits: await auditCount() };
    const err = await errorOf(() => adminSend(shop.admin, "/api/admin/proxies/generate", body));
    expect(err.status).toBe(400);
    expect(err.message).toBe(sentence(message));
    expect((fieldErrorsOf(err) as Record<string, { message: string }>)[field]?.message).toBe(sentence(message));
    expect(await proxyCount()).toBe(before.proxies);
    expect(await auditCount()).toBe(before.audits);
  });
});

proxyImportEditCases(shop, () => buyer);
